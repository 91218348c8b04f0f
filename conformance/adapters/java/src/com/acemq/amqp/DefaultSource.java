package com.acemq.amqp;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * The draws {@link RetryPolicy#nextDelay(long)} and
 * {@link RetryPolicy#jittered(double)} take when the caller passes no source:
 * {@code ThreadLocalRandom.current().nextDouble()}.
 *
 * <p>Why this one: its {@code nextDouble} is {@code Random.nextDouble}'s
 * {@code ((next(26) << 27) + next(27)) * 2^-53} over ThreadLocalRandom's own
 * {@code next(bits)} (JDK 17), so every draw is a multiple of 2^-53 in
 * [0, 1): the 53 bits of resolution the contract asks of a default source,
 * as Ruby's {@code Kernel.rand} has. It is seeded once per process from the
 * clock and {@code nanoTime} (or from SecureRandom with
 * {@code -Djava.util.secureRandomSeed=true}), so a fleet that failed together
 * does not draw the same jitter and come back together. Each thread has its
 * own stream, so there is no lock and no contended CAS, unlike a shared
 * {@link java.util.Random}, whose 48-bit LCG is also a weaker generator; and
 * its SplitMix-style output passes the statistics battery
 * ({@code retry-policy stats}). It cannot be seeded: to replay Ruby, pass a
 * {@link RubyRandom}.
 */
public enum DefaultSource implements DoubleSupplier {
    INSTANCE;

    /** A uniform draw in [0, 1), a multiple of 2^-53. */
    @Override
    public double getAsDouble() {
        return ThreadLocalRandom.current().nextDouble();
    }
}
