using System;
using System.Security.Cryptography;

namespace AceMQ.Amqp
{
    /// <summary>
    /// The draw NextDelay and Jittered use when given no source: uniform on
    /// the multiples of 2^-53 in [0, 1), 53 bits of resolution, as Ruby's
    /// Kernel.rand, Python's random.random, Java's nextDouble and Go's
    /// Float64 give. One System.Random a thread, made on the thread's first
    /// draw and seeded from the operating system's generator.
    /// </summary>
    /// <remarks>
    /// Why not <c>new Random().NextDouble()</c>:
    /// <list type="bullet">
    /// <item>On Mono and .NET Framework, NextDouble() is InternalSample() /
    /// Int32.MaxValue: 31 bits, 2^31 - 1 values. It fails the contract's
    /// 53-bit rule. (.NET 6+'s parameterless Random is xoshiro256** with a
    /// 53-bit NextDouble, but Random(seed) there is still the 31-bit one, and
    /// this port must also run on Mono.)</item>
    /// <item><c>new Random()</c> seeds from Environment.TickCount on .NET
    /// Framework: instances made in the same millisecond repeat each other's
    /// draws. (Mono 6.8 seeds them from a shared generator instead; two made
    /// back to back were measured to differ; .NET Core and .NET 5+ seed it
    /// from the OS.) So every instance here is seeded from
    /// RandomNumberGenerator, on every runtime: System.Random takes 31 bits
    /// of it (Math.Abs of the int), so two threads of a fleet of n share a
    /// stream with a chance of about n^2 / 2^32.</item>
    /// <item>System.Random is not thread-safe: concurrent calls on one
    /// instance can wreck its state (on .NET Framework it then returns 0 for
    /// ever). So each thread has its own, in a [ThreadStatic] field, which no
    /// other thread touches: no lock, no contention, and a thread's stream
    /// runs on for its life.</item>
    /// </list>
    /// How the 53 bits are made, and why this way: every runtime's
    /// Random.Next() is uniform on [0, 2^31 - 2] (Mono and .NET Framework:
    /// InternalSample(); .NET 6+: a rejection loop on xoshiro's top 31 bits),
    /// 2^31 - 1 values, not a power of two. Its top k bits, x >> (31 - k),
    /// are uniform once the last, short bucket is refused: the values
    /// x &gt;= 2^31 - 2^(31-k) are 2^(31-k) - 1 of them where every other
    /// bucket has 2^(31-k). So a is the top 27 bits of a Next() below
    /// 2^31 - 16, b the top 26 bits of one below 2^31 - 32 (a retry once in
    /// about 10^8 calls), and the draw is (a * 2^26 + b) / 2^53, the shape of
    /// Ruby's genrand_res53, every operation exact. The alternatives are each
    /// biased at a fine scale: NextBytes makes a byte as InternalSample() %
    /// 256, so the byte 255 is 2^-23 rarer than the others; Next(maxValue)
    /// is (int)(Sample() * maxValue), which cannot spread 2^31 - 1 samples
    /// evenly over 2^27 outputs either (one gets 15 where the others get 16)
    /// and picks that one through a rounded multiplication by 1 / (2^31 - 1);
    /// and NextDouble() + NextDouble() / 2^31 is not uniform on the 2^-53
    /// grid (each NextDouble() is a multiple of 1 / (2^31 - 1)).
    /// </remarks>
    public static class DefaultSource
    {
        // This thread's generator. No initializer: a [ThreadStatic] field's
        // initializer runs on the first thread only, so it is made on each
        // thread's first draw.
        [ThreadStatic] private static Random stream;

        private const int Below27 = int.MaxValue - 15;   // 2^31 - 16: 2^27 full buckets of 16
        private const int Below26 = int.MaxValue - 31;   // 2^31 - 32: 2^26 full buckets of 32

        /// <summary>One draw, uniform on the multiples of 2^-53 in [0, 1).</summary>
        public static double NextDouble()
        {
            Random random = stream ?? (stream = new Random(OperatingSystemSeed()));
            int x, y;
            do { x = random.Next(); } while (x >= Below27);
            do { y = random.Next(); } while (y >= Below26);
            int a = x >> 4;  // 27 bits
            int b = y >> 5;  // 26 bits
            return (double)((double)((double)a * 67108864.0 + (double)b) / 9007199254740992.0);
        }

        // Once a thread, so a generator of its own each time: no instance is
        // shared between threads.
        private static int OperatingSystemSeed()
        {
            var bytes = new byte[4];
            using (var generator = RandomNumberGenerator.Create())
            {
                generator.GetBytes(bytes);
            }
            return BitConverter.ToInt32(bytes, 0);
        }
    }
}
