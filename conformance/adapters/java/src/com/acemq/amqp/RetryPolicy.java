package com.acemq.amqp;

import java.util.OptionalDouble;
import java.util.function.DoubleSupplier;
import java.util.stream.DoubleStream;

/**
 * When to try a failed message again, and when to stop: the Java member of the
 * AceMQ retry-policy family, a port of the Ruby class
 * {@code AceMQ::AMQP::RetryPolicy}, JDK 17 standard library only, written from
 * docs/contract.md.
 *
 * <p>The arithmetic is a cross-language contract: every duration is seconds as
 * a binary64 {@code double}, and every operation below is one rounded
 * operation in the reference's order, so this class agrees with Ruby, C++, Go,
 * Python and .NET to the bit ({@code retry-policy check} proves it through
 * {@code com.acemq.amqp.adapter.Adapter}). Java 17 evaluates {@code double}
 * arithmetic strictly (JEP 306), so no x87 extended precision leaks in, and
 * nothing here calls {@link Math#fma}: a fused multiply-add rounds once where
 * the contract rounds twice.
 *
 * <p>Like the C++ port, and unlike the reference, it validates: an invalid
 * parameter or argument throws {@link RetryPolicyArgumentException} naming it
 * and its value. Immutable, so safe to share between threads.
 *
 * <p>{@code equals} is the record's: it tells {@code -0.0} from {@code 0.0}
 * (their schedules differ in sign bits), where C++'s {@code ==} does not.
 *
 * @param maxAttempts   total deliveries, including the first (at least 1)
 * @param initialDelay  seconds before the second attempt
 * @param multiplier    what the delay is multiplied by each time
 * @param maxDelay      the ceiling in seconds; 0 means no cap
 * @param jitterFactor  how far a delay may move either side, 0 to 1
 * @param maxMessageAge give up on anything older, in seconds; 0 means never
 */
public record RetryPolicy(long maxAttempts, double initialDelay, double multiplier,
                          double maxDelay, double jitterFactor, double maxMessageAge) {

    /** {@link #schedule()} refuses longer schedules: 2^24 doubles is already 128 MiB. */
    public static final long MAX_SCHEDULE_LENGTH = 1L << 24;

    private static final String WHERE = "RetryPolicy";

    /** Validates, in the reference's order of parameters. */
    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new RetryPolicyArgumentException(WHERE, "max_attempts", "at least 1",
                    Long.toString(maxAttempts));
        }
        requireFiniteNonNegative(WHERE, "initial_delay", initialDelay);
        requireFiniteNonNegative(WHERE, "multiplier", multiplier);
        requireFiniteNonNegative(WHERE, "max_delay", maxDelay);
        requireJitterFactor(WHERE, jitterFactor);
        requireFiniteNonNegative(WHERE, "max_message_age", maxMessageAge);
    }

    // -0.0 passes: it is not below zero, and its sign is kept as Ruby keeps it.
    private static void requireFiniteNonNegative(String where, String name, double x) {
        if (!Double.isFinite(x) || x < 0) {
            throw new RetryPolicyArgumentException(where, name, "finite and >= 0", Double.toString(x));
        }
    }

    // Written so that NaN fails too: it is in no interval.
    private static void requireJitterFactor(String where, double factor) {
        if (!(factor >= 0 && factor <= 1)) {
            throw new RetryPolicyArgumentException(where, "jitter_factor", "in [0, 1]", Double.toString(factor));
        }
    }

    // ---- Making one -------------------------------------------------------

    /** A builder starting from the reference's defaults (max_attempts 1, multiplier 2, all else 0). */
    public static Builder builder() {
        return new Builder();
    }

    /** Named parameters, with the reference's defaults; {@link #build()} validates. */
    public static final class Builder {
        private long maxAttempts = 1;
        private double initialDelay = 0.0;
        private double multiplier = 2.0;
        private double maxDelay = 0.0;
        private double jitterFactor = 0.0;
        private double maxMessageAge = 0.0;

        private Builder() {
        }

        public Builder maxAttempts(long value) {
            maxAttempts = value;
            return this;
        }

        public Builder initialDelay(double seconds) {
            initialDelay = seconds;
            return this;
        }

        public Builder multiplier(double value) {
            multiplier = value;
            return this;
        }

        public Builder maxDelay(double seconds) {
            maxDelay = seconds;
            return this;
        }

        public Builder jitterFactor(double value) {
            jitterFactor = value;
            return this;
        }

        public Builder maxMessageAge(double seconds) {
            maxMessageAge = seconds;
            return this;
        }

        public RetryPolicy build() {
            return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, jitterFactor, maxMessageAge);
        }
    }

    /** One delivery, no second chance. */
    public static RetryPolicy none() {
        return builder().build();
    }

    /** The same wait every time, with no jitter. */
    public static RetryPolicy fixed(long maxAttempts, double delay) {
        return builder().maxAttempts(maxAttempts).initialDelay(delay).multiplier(1.0).build();
    }

    /** Doubling delays with 20% jitter and no cap. */
    public static RetryPolicy exponential(long maxAttempts, double initialDelay) {
        return exponential(maxAttempts, initialDelay, 0.0);
    }

    /** Doubling delays with 20% jitter; {@code maxDelay} 0 means no cap. */
    public static RetryPolicy exponential(long maxAttempts, double initialDelay, double maxDelay) {
        return builder().maxAttempts(maxAttempts).initialDelay(initialDelay).multiplier(2.0)
                .maxDelay(maxDelay).jitterFactor(0.2).build();
    }

    /** A copy that abandons a message older than {@code maxMessageAge} seconds. */
    public RetryPolicy giveUpAfter(double maxMessageAge) {
        requireFiniteNonNegative("give_up_after", "max_message_age", maxMessageAge);
        return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, jitterFactor, maxMessageAge);
    }

    /** A copy with another jitter factor, in [0, 1]. */
    public RetryPolicy withJitter(double jitterFactor) {
        requireJitterFactor("with_jitter", jitterFactor);
        return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, jitterFactor, maxMessageAge);
    }

    // ---- The schedule -----------------------------------------------------

    private double capped(double d) {
        return maxDelay > 0 && d > maxDelay ? maxDelay : d;
    }

    /**
     * The delays without jitter, {@code maxAttempts - 1} of them. The cap
     * applies to each entry, never to the running value, and the running value
     * is rounded after every multiplication: no closed form, since
     * {@code initial * multiplier^k} differs in the last bit.
     *
     * @throws IllegalStateException beyond {@link #MAX_SCHEDULE_LENGTH} entries; {@link #delays()} walks any length
     */
    public double[] schedule() {
        long entries = maxAttempts - 1;
        if (entries > MAX_SCHEDULE_LENGTH) {
            throw new IllegalStateException(WHERE + ": a schedule of " + entries
                    + " entries is more than 2^24; walk it with delays()");
        }
        double[] delays = new double[(int) entries];
        double d = initialDelay;
        for (int i = 0; i < delays.length; i++) {
            delays[i] = capped(d);
            d = d * multiplier;
        }
        return delays;
    }

    /** The same entries as {@link #schedule()}, with the same bits, walked lazily: any length. */
    public DoubleStream delays() {
        return DoubleStream.iterate(initialDelay, d -> d * multiplier).limit(maxAttempts - 1).map(this::capped);
    }

    /**
     * The running value before entry {@code attempt} (from 1) of the schedule
     * loop, with the contract's early exits, which keep the bits: the running
     * value has passed the cap with multiplier >= 1 (it can only grow, so the
     * entry is the cap), is a zero (only its sign can change, by parity), or
     * maps to the same bits (+Infinity, or a rounding fixed point). So attempt
     * 10^9 on a capped policy costs a few dozen steps.
     */
    private double runningValue(long attempt) {
        boolean capIsFinal = maxDelay > 0 && multiplier >= 1;
        double d = initialDelay;
        for (long k = 0; k < attempt - 1; k++) {
            if (capIsFinal && d > maxDelay) {
                return d;
            }
            if (d == 0) {
                // A zero stays a zero; under multiplier -0.0 its sign flips
                // once a step, so the parity of the steps left settles it.
                boolean negativeMultiplier = Double.doubleToRawLongBits(multiplier) < 0;
                if (negativeMultiplier && ((attempt - 1 - k) & 1) == 1) {
                    d = -d;
                }
                return d;
            }
            double next = d * multiplier;
            // Bits, not values: -0.0 and 0.0 stay apart.
            if (Double.doubleToRawLongBits(next) == Double.doubleToRawLongBits(d)) {
                return d;
            }
            d = next;
        }
        return d;
    }

    // ---- next_delay -------------------------------------------------------

    /**
     * Whether {@code nextDelay} gives up: the last attempt has been made, or
     * the message is at least {@code maxMessageAge} old (0 means never).
     */
    public boolean givesUp(long attempt, double messageAge) {
        return attempt >= maxAttempts || (maxMessageAge > 0 && messageAge >= maxMessageAge);
    }

    /** {@code nextDelay(attempt, 0.0, true, DefaultSource.INSTANCE)}. */
    public OptionalDouble nextDelay(long attempt) {
        return nextDelay(attempt, 0.0, true, DefaultSource.INSTANCE);
    }

    /** {@code nextDelay(attempt, messageAge, true, DefaultSource.INSTANCE)}. */
    public OptionalDouble nextDelay(long attempt, double messageAge) {
        return nextDelay(attempt, messageAge, true, DefaultSource.INSTANCE);
    }

    /** {@code nextDelay(attempt, messageAge, jitter, DefaultSource.INSTANCE)}. */
    public OptionalDouble nextDelay(long attempt, double messageAge, boolean jitter) {
        return nextDelay(attempt, messageAge, jitter, DefaultSource.INSTANCE);
    }

    /**
     * How long to wait after {@code attempt} (from 1) failed, in seconds; empty
     * to give up. The arguments are checked before the give-up test. With
     * jitter, one draw is taken from {@code source}, and only when jitter
     * applies and the policy has not given up: a draw spent anywhere else
     * would shift every later delay of a replay.
     *
     * @param messageAge seconds since the message was first delivered; negative counts as young
     * @param source     uniform draws in [0, 1): {@link DefaultSource}, or {@link RubyRandom} to replay Ruby
     * @throws RetryPolicyArgumentException attempt below 1, a NaN age, or a draw outside [0, 1)
     */
    public OptionalDouble nextDelay(long attempt, double messageAge, boolean jitter, DoubleSupplier source) {
        if (attempt < 1) {
            throw new RetryPolicyArgumentException("next_delay", "attempt", "at least 1", Long.toString(attempt));
        }
        if (Double.isNaN(messageAge)) {
            throw new RetryPolicyArgumentException("next_delay", "message_age", "a number, not NaN", "NaN");
        }
        if (givesUp(attempt, messageAge)) {
            return OptionalDouble.empty();
        }
        double delay = capped(runningValue(attempt));
        if (jitter && jitterApplies(delay)) {
            delay = applyDraw(delay, source.getAsDouble());
        }
        return OptionalDouble.of(atLeastZero(delay));
    }

    /**
     * Ruby's {@code [delay, 0.0].max}, which returns the first of two equal
     * values, so -0.0 stays -0.0. Not {@code Math.max}: {@code Math.max(-0.0, 0.0)} is +0.0.
     */
    private static double atLeastZero(double delay) {
        return delay < 0 ? 0.0 : delay;
    }

    // ---- jittered ---------------------------------------------------------

    private boolean jitterApplies(double delay) {
        return jitterFactor > 0 && delay > 0;
    }

    /**
     * {@code delay * (1 + (((r * 2) - 1) * jitter_factor))}, each operation
     * rounded, in that order. Not {@code delay + delay * t3}, and never
     * {@link Math#fma}: both are different functions of the same inputs.
     */
    private double applyDraw(double delay, double r) {
        // A draw outside [0, 1) is an error, never clamped.
        if (!(r >= 0 && r < 1)) {
            throw new RetryPolicyArgumentException("jitter", "r", "in [0, 1)", Double.toString(r));
        }
        double t1 = r * 2;
        double t2 = t1 - 1;
        double t3 = t2 * jitterFactor;
        double t4 = 1 + t3;
        double jittered = delay * t4;
        // The one NaN this arithmetic can make from valid input is
        // +Infinity * 0 (factor 1, r <= 2^-55): a delay that was infinite
        // stays infinite, as the contract decides. The draw is spent anyway.
        return Double.isNaN(jittered) ? delay : jittered;
    }

    /** {@code jittered(delay, DefaultSource.INSTANCE)}. */
    public double jittered(double delay) {
        return jittered(delay, DefaultSource.INSTANCE);
    }

    /**
     * The delay moved either side by up to {@code jitterFactor}: within
     * {@code [delay * (1 - f), delay * (1 + f)]}. Draws from {@code source}
     * only when jitter applies (a positive factor and delay); a delay of zero
     * or below comes back as it is.
     *
     * @throws RetryPolicyArgumentException a NaN delay, or a draw outside [0, 1)
     */
    public double jittered(double delay, DoubleSupplier source) {
        if (Double.isNaN(delay)) {
            throw new RetryPolicyArgumentException("jittered", "delay", "a number, not NaN", "NaN");
        }
        if (!jitterApplies(delay)) {
            return delay;
        }
        return applyDraw(delay, source.getAsDouble());
    }
}
