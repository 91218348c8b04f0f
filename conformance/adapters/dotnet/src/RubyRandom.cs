using System;

namespace AceMQ.Amqp
{
    /// <summary>
    /// Replays Ruby's srand(seed); rand for 0 &lt;= seed &lt; 2^32: MT19937 seeded
    /// with init_genrand(seed), each draw made from two 32-bit outputs by
    /// genrand_res53 (docs/contract.md §5). System.Random is another generator
    /// altogether (a subtractive one, 31 bits a draw on Mono and .NET
    /// Framework). Anchor: seed 42 gives 0.3745401188473625,
    /// 0.9507143064099162, 0.7319939418114051. Not thread-safe: one replay,
    /// one instance.
    /// </summary>
    public sealed class RubyRandom
    {
        private const int N = 624;
        private const int M = 397;
        private readonly uint[] state = new uint[N];
        private int index;

        /// <summary>srand(seed).</summary>
        public RubyRandom(uint seed)
        {
            state[0] = seed;
            unchecked
            {
                for (int i = 1; i < N; i++)
                {
                    uint prev = state[i - 1];
                    state[i] = 1812433253u * (prev ^ (prev >> 30)) + (uint)i;
                }
            }
            index = N;
        }

        private void Twist()
        {
            for (int i = 0; i < N; i++)
            {
                uint y = (state[i] & 0x80000000u) | (state[(i + 1) % N] & 0x7fffffffu);
                uint next = state[(i + M) % N] ^ (y >> 1);
                if ((y & 1u) != 0) next ^= 0x9908b0dfu;
                state[i] = next;
            }
            index = 0;
        }

        /// <summary>The next 32-bit output of MT19937 (genrand_int32).</summary>
        public uint NextUInt32()
        {
            if (index >= N) Twist();
            uint y = state[index++];
            y ^= y >> 11;
            y ^= (y << 7) & 0x9d2c5680u;
            y ^= (y << 15) & 0xefc60000u;
            y ^= y >> 18;
            return y;
        }

        /// <summary>
        /// Kernel.rand: ((a >> 5) * 2^26 + (b >> 6)) / 2^53, every operation
        /// exact (at most 53 significant bits, divided by a power of two).
        /// </summary>
        public double NextDouble()
        {
            uint a = NextUInt32() >> 5;
            uint b = NextUInt32() >> 6;
            return (double)((double)((double)a * 67108864.0 + (double)b) / 9007199254740992.0);
        }
    }
}
