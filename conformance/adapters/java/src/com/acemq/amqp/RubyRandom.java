package com.acemq.amqp;

import java.util.function.DoubleSupplier;

/**
 * Replays Ruby's {@code srand(seed); rand} for {@code 0 <= seed < 2^32}:
 * MT19937 seeded with {@code init_genrand(seed)}, each draw made from two
 * consecutive 32-bit outputs by {@code genrand_res53} (docs/contract.md §5).
 * Not {@link java.util.Random}, which is another generator altogether.
 * Anchor: seed 42 gives 0.3745401188473625, 0.9507143064099162,
 * 0.7319939418114051. Not thread-safe: one replay, one instance.
 */
public final class RubyRandom implements DoubleSupplier {
    private static final int N = 624;
    private static final int M = 397;

    // 32-bit words in ints: Java's int arithmetic wraps modulo 2^32, as
    // uint32_t does, and >>> is the unsigned shift.
    private final int[] state = new int[N];
    private int index = N;

    /** {@code srand(seed)}. */
    public RubyRandom(long seed) {
        if (seed < 0 || seed > 0xFFFFFFFFL) {
            throw new RetryPolicyArgumentException("RubyRandom", "seed", "in [0, 2^32 - 1]", Long.toString(seed));
        }
        state[0] = (int) seed;
        for (int i = 1; i < N; i++) {
            int previous = state[i - 1];
            state[i] = 1812433253 * (previous ^ (previous >>> 30)) + i;
        }
    }

    private void twist() {
        for (int i = 0; i < N; i++) {
            int y = (state[i] & 0x80000000) | (state[(i + 1) % N] & 0x7fffffff);
            int next = state[(i + M) % N] ^ (y >>> 1);
            if ((y & 1) != 0) {
                next ^= 0x9908b0df;
            }
            state[i] = next;
        }
        index = 0;
    }

    /** The next 32-bit output of MT19937, tempered, as an unsigned value in an int. */
    public int nextInt32() {
        if (index >= N) {
            twist();
        }
        int y = state[index++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        return y;
    }

    /**
     * Kernel.rand: {@code ((a >> 5) * 2^26 + (b >> 6)) / 2^53}, every
     * operation exact (at most 53 significant bits, divided by a power of two).
     */
    @Override
    public double getAsDouble() {
        int a = nextInt32() >>> 5;
        int b = nextInt32() >>> 6;
        return (a * 67108864.0 + b) / 9007199254740992.0;
    }
}
