package com.acemq.amqp;

import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

/**
 * The draws {@link RetryPolicy#nextDelay(long)} and
 * {@link RetryPolicy#jittered(double)} take when the caller passes no source:
 * one {@link SplittableRandom} a thread, each seeded with 64 bits from
 * {@link SecureRandom} (the operating system's entropy) when its thread first
 * draws.
 *
 * <p>Why this one (docs/contract.md §5: each process of a fleet its own
 * stream, safe under threads, 53 bits):
 * <ul>
 * <li>Seeded from the OS, never from a clock. Not {@code ThreadLocalRandom},
 * which is the same SplitMix64 generator but whose JDK 17 seeds all come from
 * one per-process seed, {@code mix(currentTimeMillis) ^ mix(nanoTime)}: a
 * clock. Its {@code -Djava.util.secureRandomSeed=true} is read from the
 * command line only ({@code VM.getSavedProperty}), so a library cannot turn
 * it on, and every user of the port would have to remember the flag. Not
 * {@code new Random()} either (a 48-bit LCG seeded from {@code nanoTime} and a
 * counter), nor {@code new Random(System.currentTimeMillis())}, which gives
 * processes started in the same millisecond the same stream.</li>
 * <li>Safe under threads without a lock: each thread draws from its own
 * generator, which no other thread touches. Seeds are 64 random bits, so two
 * threads, of this process or of the fleet, overlap in one cycle of 2^64 only
 * by chance: about n / 2^63 for a pair drawing n each. A shared
 * {@code java.util.Random} would be safe too (a CAS loop) but contended, and
 * a 48-bit LCG.</li>
 * <li>53 bits: {@code nextDouble} is {@code (nextLong() >>> 11) * 2^-53}
 * (JDK 17's {@code RandomGenerator} default), every draw a multiple of 2^-53
 * in [0, 1), as Ruby's {@code Kernel.rand} has; SplitMix64's output passes
 * the statistics battery ({@code retry-policy stats}).</li>
 * </ul>
 * Each thread's stream runs on for the thread's life; it cannot be seeded: to
 * replay Ruby, pass a {@link RubyRandom}.
 */
public enum DefaultSource implements DoubleSupplier {
    INSTANCE;

    /** This thread's generator, made (and seeded from the OS) on its first draw. */
    private static final ThreadLocal<SplittableRandom> STREAM =
            ThreadLocal.withInitial(() -> new SplittableRandom(Seeds.next()));

    /** A uniform draw in [0, 1), a multiple of 2^-53. */
    @Override
    public double getAsDouble() {
        return STREAM.get().nextDouble();
    }

    /** The OS's entropy, made when the first thread draws; SecureRandom is safe to share. */
    private static final class Seeds {
        private static final SecureRandom OS = new SecureRandom();

        static long next() {
            return OS.nextLong();
        }
    }
}
