using System;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;

// The unit test checks Xoshiro256StarStar against known answers, so it sees
// the generator without the port's public surface growing by a class.
[assembly: InternalsVisibleTo("RetryPolicyTests")]

namespace AceMQ.Amqp
{
    /// <summary>
    /// The draw NextDelay and Jittered use when given no source: uniform on
    /// the multiples of 2^-53 in [0, 1), 53 bits of resolution, as Ruby's
    /// Kernel.rand, Python's random.random, Java's nextDouble and Go's
    /// Float64 give. One xoshiro256** generator a thread, made on the
    /// thread's first draw and seeded with 256 bits from the operating
    /// system's generator.
    /// </summary>
    /// <remarks>
    /// Why not System.Random, in any form:
    /// <list type="bullet">
    /// <item>On Mono and .NET Framework, NextDouble() is InternalSample() /
    /// Int32.MaxValue: 31 bits, 2^31 - 1 values. It fails the contract's
    /// 53-bit rule. (.NET 6+'s parameterless Random is xoshiro256** with a
    /// 53-bit NextDouble, but Random(seed) there is still the 31-bit one, and
    /// this port must also run on Mono.)</item>
    /// <item>Random(seed) keeps 31 bits of its seed (Math.Abs of an int), so
    /// however well it is seeded a fleet of n streams (processes times
    /// threads) has two sharing one with a chance of about n^2 / 2^32: 2% at
    /// 10,000. The contract asks each process for a stream of its own
    /// (docs/contract.md §5), so this port seeds a generator with a state
    /// of 256 bits, every bit from RandomNumberGenerator: two of a fleet of
    /// 10,000 start alike with a chance of about 10^8 / 2^257, and their
    /// streams, 2^256 - 1 long, overlap within 2^40 draws each with a chance
    /// of about 10^8 * 2^41 / 2^256, nil either way.</item>
    /// <item><c>new Random()</c> seeds from Environment.TickCount on .NET
    /// Framework: instances made in the same millisecond repeat each other's
    /// draws.</item>
    /// </list>
    /// Why xoshiro256**: Blackman and Vigna's generator, the one .NET 6+'s
    /// unseeded Random uses, 256 bits of state, a handful of ulong operations
    /// a draw, with no known statistical flaw in its output; the draw is its
    /// top 53 bits, x &gt;&gt; 11, times 2^-53, each operation exact, as Vigna
    /// recommends. One generator a thread, in a [ThreadStatic] field no other
    /// thread touches, because stepping one state from two threads at once
    /// can repeat or lose draws: no lock, no contention, and a thread's
    /// stream runs on for its life.
    /// </remarks>
    public static class DefaultSource
    {
        // This thread's generator. No initializer: a [ThreadStatic] field's
        // initializer runs on the first thread only, so it is made on each
        // thread's first draw.
        [ThreadStatic] private static Xoshiro256StarStar stream;

        /// <summary>One draw, uniform on the multiples of 2^-53 in [0, 1).</summary>
        public static double NextDouble()
        {
            Xoshiro256StarStar generator = stream ?? (stream = Xoshiro256StarStar.FromOperatingSystem());
            return generator.NextDouble();
        }
    }

    /// <summary>
    /// xoshiro256** 1.0 (Blackman and Vigna, 2018, prng.di.unimi.it), as
    /// the reference xoshiro256starstar.c: 64-bit outputs, period 2^256 - 1.
    /// Not thread-safe: one instance a thread.
    /// </summary>
    internal sealed class Xoshiro256StarStar
    {
        private ulong s0, s1, s2, s3;

        /// <summary>The state as given; not all four zero (the one state that never leaves itself).</summary>
        internal Xoshiro256StarStar(ulong s0, ulong s1, ulong s2, ulong s3)
        {
            if ((s0 | s1 | s2 | s3) == 0) throw new ArgumentException("xoshiro256**'s state must not be all zero");
            this.s0 = s0;
            this.s1 = s1;
            this.s2 = s2;
            this.s3 = s3;
        }

        // All 256 bits of the state from the operating system's entropy (a
        // generator of its own each time, so none is shared between threads);
        // the all-zero state, a chance of 2^-256, is drawn again rather than
        // kept, since xoshiro would return 0 from it for ever.
        internal static Xoshiro256StarStar FromOperatingSystem()
        {
            var bytes = new byte[32];
            using (var entropy = RandomNumberGenerator.Create())
            {
                while (true)
                {
                    entropy.GetBytes(bytes);
                    ulong a = BitConverter.ToUInt64(bytes, 0), b = BitConverter.ToUInt64(bytes, 8);
                    ulong c = BitConverter.ToUInt64(bytes, 16), d = BitConverter.ToUInt64(bytes, 24);
                    if ((a | b | c | d) != 0) return new Xoshiro256StarStar(a, b, c, d);
                }
            }
        }

        /// <summary>The next 64-bit output.</summary>
        internal ulong NextUInt64()
        {
            // Unchecked: the reference's uint64_t arithmetic wraps mod 2^64, and a
            // -checked+ build would otherwise throw on the multiplications.
            unchecked
            {
                ulong result = RotateLeft(s1 * 5, 7) * 9;
                ulong t = s1 << 17;
                s2 ^= s0;
                s3 ^= s1;
                s1 ^= s2;
                s0 ^= s3;
                s2 ^= t;
                s3 = RotateLeft(s3, 45);
                return result;
            }
        }

        /// <summary>The top 53 bits of the next output times 2^-53: a multiple of 2^-53 in [0, 1).</summary>
        internal double NextDouble()
        {
            // x >> 11 is below 2^53, so it converts to a double exactly, and
            // dividing by 2^53 only moves the exponent: no rounding anywhere.
            return (double)(long)(NextUInt64() >> 11) / 9007199254740992.0;
        }

        private static ulong RotateLeft(ulong x, int k)
        {
            return (x << k) | (x >> (64 - k));
        }
    }
}
