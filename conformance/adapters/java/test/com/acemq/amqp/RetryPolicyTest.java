package com.acemq.amqp;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.DoubleSupplier;

/**
 * The contract's worked examples (docs/contract.md §6, answers of the Ruby
 * reference) and its decisions, each compared bit for bit
 * ({@link Double#doubleToRawLongBits}), without JUnit: run {@code main}; it
 * prints each check and exits 1 if any fails.
 *
 * <pre>
 * javac -d /tmp/java-build $(find conformance/adapters/java/src conformance/adapters/java/test -name '*.java')
 * java -cp /tmp/java-build com.acemq.amqp.RetryPolicyTest
 * </pre>
 */
public final class RetryPolicyTest {
    private static final Tally tally = new Tally();

    private RetryPolicyTest() {
    }

    // ---- Assertions -----------------------------------------------------------

    private static String show(double x) {
        return x + " (0x" + Long.toHexString(Double.doubleToRawLongBits(x)) + ")";
    }

    private static void report(String name, boolean ok, String got, String want) {
        tally.record(name, ok, ok ? got : "got " + got + ", want " + want);
    }

    private static void same(String name, double got, double want) {
        report(name, Double.doubleToRawLongBits(got) == Double.doubleToRawLongBits(want), show(got), show(want));
    }

    private static void same(String name, double[] got, double... want) {
        boolean ok = got.length == want.length;
        for (int i = 0; ok && i < got.length; i++) {
            ok = Double.doubleToRawLongBits(got[i]) == Double.doubleToRawLongBits(want[i]);
        }
        report(name, ok, brief(got), brief(want));
    }

    private static String brief(double[] xs) {
        if (xs.length <= 10) {
            return Arrays.toString(xs);
        }
        return xs.length + " entries [" + xs[0] + ", " + xs[1] + ", " + xs[2] + ", ..., " + xs[xs.length - 2] + ", "
                + xs[xs.length - 1] + "]";
    }

    /** A delay, or Double.NaN standing for "give up" (nextDelay's empty answer). */
    private static void same(String name, OptionalDouble got, double want) {
        double value = got.isPresent() ? got.getAsDouble() : Double.NaN;
        report(name, Double.doubleToRawLongBits(value) == Double.doubleToRawLongBits(want),
                got.isPresent() ? show(value) : "give up", Double.isNaN(want) ? "give up" : show(want));
    }

    private static void truth(String name, boolean ok, String detail) {
        report(name, ok, detail, "the opposite");
    }

    /** The call throws RetryPolicyArgumentException naming {@code parameter}. */
    private static void refuses(String name, String parameter, Runnable call) {
        try {
            call.run();
            report(name, false, "accepted", "refused, naming " + parameter);
        } catch (RetryPolicyArgumentException e) {
            report(name, e.parameter().equals(parameter) && e.getMessage().contains(parameter),
                    "refused: " + e.getMessage(), "refused, naming " + parameter);
        }
    }

    /** A draw source that always gives r and counts its draws. */
    private static final class Counted implements DoubleSupplier {
        final double r;
        int draws;

        Counted(double r) {
            this.r = r;
        }

        @Override
        public double getAsDouble() {
            draws++;
            return r;
        }
    }

    private static DoubleSupplier fixedDraw(double r) {
        return () -> r;
    }

    private static final double NO = Double.NaN; // "give up"

    // ---- The contract ---------------------------------------------------------

    private static void workedExamples() {
        same("exponential(5, 0.5, 3.0).schedule", RetryPolicy.exponential(5, 0.5, 3.0).schedule(),
                0.5, 1.0, 2.0, 3.0);
        same("exponential(10, 0.5, 30).schedule", RetryPolicy.exponential(10, 0.5, 30).schedule(),
                0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0);
        RetryPolicy capPerEntry = RetryPolicy.builder().maxAttempts(6).initialDelay(100).multiplier(0.5)
                .maxDelay(30).build();
        same("the cap applies to each entry, not the running value", capPerEntry.schedule(),
                30.0, 30.0, 25.0, 12.5, 6.25);
        same("no closed form: 0.1 x3", RetryPolicy.builder().maxAttempts(4).initialDelay(0.1).multiplier(3)
                .build().schedule(), 0.1, 0.30000000000000004, 0.9000000000000001);
        double[] doubling = RetryPolicy.builder().maxAttempts(1100).initialDelay(1).multiplier(2).build().schedule();
        same("uncapped doubling: schedule.last", doubling[doubling.length - 1], Double.POSITIVE_INFINITY);
        same("uncapped doubling: entry 1024 is 2^1023", doubling[1023], Math.scalb(1.0, 1023));
        same("multiplier -0.0", RetryPolicy.builder().maxAttempts(6).initialDelay(7).multiplier(-0.0).build()
                .schedule(), 7.0, -0.0, 0.0, -0.0, 0.0);

        same("jitter 0.2: jittered(1.5), r = 0", RetryPolicy.builder().jitterFactor(0.2).build()
                .jittered(1.5, fixedDraw(0)), 1.2000000000000002);
        double r = 0x1.5876015e4d702p-6;
        same("jitter 0.3: jittered(0.7), r = 0x1.5876015e4d702p-6", RetryPolicy.builder().jitterFactor(0.3).build()
                .jittered(0.7, fixedDraw(r)), 0.4988301759350254);
        // The vector tells the orders apart, so the check above can fail:
        // delay + delay * t3 and fma(delay, t3, delay) give ...253.
        double t3 = (r * 2 - 1) * 0.3;
        truth("(the fused and regrouped forms differ on that vector)",
                Math.fma(0.7, t3, 0.7) == 0.4988301759350253 && 0.7 + 0.7 * t3 == 0.4988301759350253,
                "fma and regrouped give 0.4988301759350253");
        same("jitter 0.5: jittered(8.0), r = 1 - 2^-53: the closed top, a tie to even",
                RetryPolicy.builder().jitterFactor(0.5).build().jittered(8.0, fixedDraw(1 - 0x1p-53)), 12.0);

        same("max 3, initial 5, jitter 1: next_delay(1), r = 0",
                RetryPolicy.builder().maxAttempts(3).initialDelay(5).jitterFactor(1).build()
                        .nextDelay(1, 0, true, fixedDraw(0)), 0.0);
        same("jitter after the cap: next_delay(3), r = 0.999",
                RetryPolicy.builder().maxAttempts(4).initialDelay(1).multiplier(0.5).maxDelay(0.3).jitterFactor(0.5)
                        .build().nextDelay(3, 0, true, fixedDraw(0.999)), 0.37475);

        RetryPolicy exponential = RetryPolicy.exponential(5, 0.5);
        RubyRandom srand42 = new RubyRandom(42);
        double[] want = {0.4749080237694725, 1.1802857225639665, 2.1855951534491243, 4.157853574715259, NO};
        for (int attempt = 1; attempt <= 5; attempt++) {
            same("exponential(5, 0.5), srand(42): next_delay(" + attempt + ")",
                    exponential.nextDelay(attempt, 0, true, srand42), want[attempt - 1]);
        }
        same("fixed(3, 1.0): next_delay(3) gives up", RetryPolicy.fixed(3, 1.0).nextDelay(3, 0, false), NO);
        same("max_message_age 60: next_delay(1, 60.0) gives up (inclusive)",
                RetryPolicy.builder().maxAttempts(5).initialDelay(1).maxMessageAge(60).build().nextDelay(1, 60.0, false),
                NO);
    }

    private static void theDraw() {
        RubyRandom srand42 = new RubyRandom(42);
        same("srand(42): rand 1", srand42.getAsDouble(), 0.3745401188473625);
        same("srand(42): rand 2", srand42.getAsDouble(), 0.9507143064099162);
        same("srand(42): rand 3", srand42.getAsDouble(), 0.7319939418114051);
        RubyRandom seed0 = new RubyRandom(0);
        // MT19937 init_genrand(0): the first output is 2357136044 (as std::mt19937{0}).
        truth("init_genrand(0): first output 2357136044", Integer.toUnsignedLong(seed0.nextInt32()) == 2357136044L,
                "2357136044");
        RubyRandom seedMax = new RubyRandom(0xFFFFFFFFL);
        double draw = seedMax.getAsDouble();
        truth("srand(2^32 - 1) draws in [0, 1)", draw >= 0 && draw < 1, Double.toString(draw));
        refuses("srand(2^32) is out of range", "seed", () -> new RubyRandom(1L << 32));
        refuses("srand(-1) is out of range", "seed", () -> new RubyRandom(-1));

        boolean allIn = true;
        boolean allMultiples = true;
        for (int i = 0; i < 100_000; i++) {
            double u = DefaultSource.INSTANCE.getAsDouble();
            allIn &= u >= 0 && u < 1;
            double scaled = u * 0x1p53;
            allMultiples &= scaled == Math.rint(scaled);
        }
        truth("the default source draws in [0, 1)", allIn, "100000 draws");
        truth("the default source draws multiples of 2^-53 (53 bits)", allMultiples, "100000 draws");
        // 53 bits, not fewer: the lowest bit of u * 2^53 is set about half the time.
        int odd = 0;
        for (int i = 0; i < 100_000; i++) {
            odd += (long) (DefaultSource.INSTANCE.getAsDouble() * 0x1p53) & 1;
        }
        truth("the default source's 53rd bit varies", odd > 48_000 && odd < 52_000, odd + " of 100000 odd");
    }

    /**
     * The default source drawn from 8 threads at once, released together by
     * a latch: no thread fails, every draw is a multiple of 2^-53 in [0, 1),
     * and no value comes twice, within a thread (a stuck value) or across
     * threads (one stream repeated). Among 80,000 53-bit draws a repeat has
     * a chance of about 4e-7.
     */
    private static void defaultSourceThreads() throws InterruptedException {
        int threads = 8;
        int each = 10_000;
        double[][] draws = new double[threads][each];
        Throwable[] failures = new Throwable[threads];
        CountDownLatch started = new CountDownLatch(threads);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int index = t;
            workers[t] = new Thread(() -> {
                try {
                    started.countDown();
                    started.await();
                    for (int k = 0; k < each; k++) {
                        draws[index][k] = DefaultSource.INSTANCE.getAsDouble();
                    }
                } catch (Throwable e) {
                    failures[index] = e;
                }
            });
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        truth("the default source under 8 threads: no thread fails", Arrays.stream(failures).allMatch(f -> f == null),
                Arrays.toString(failures));
        boolean onGrid = true;
        Set<Double> seen = new HashSet<>();
        Set<Double> firsts = new HashSet<>();
        for (double[] stream : draws) {
            firsts.add(stream[0]);
            for (double u : stream) {
                onGrid &= u >= 0 && u < 1 && u * 0x1p53 == Math.rint(u * 0x1p53);
                seen.add(u);
            }
        }
        truth("the default source under 8 threads: every draw a multiple of 2^-53 in [0, 1)", onGrid,
                threads * each + " draws");
        truth("the default source under 8 threads: each thread its own stream (8 first draws differ)",
                firsts.size() == threads, firsts.size() + " distinct first draws of " + threads);
        truth("the default source under 8 threads: no value repeated, within or across threads",
                seen.size() == threads * each, seen.size() + " distinct of " + threads * each);
    }

    private static void decisions() {
        refuses("max_attempts 0", "max_attempts", () -> RetryPolicy.builder().maxAttempts(0).build());
        refuses("max_attempts Long.MIN_VALUE", "max_attempts", () -> RetryPolicy.fixed(Long.MIN_VALUE, 1));
        refuses("initial_delay negative", "initial_delay", () -> RetryPolicy.builder().initialDelay(-1).build());
        refuses("multiplier negative", "multiplier", () -> RetryPolicy.builder().multiplier(-0.5).build());
        refuses("max_delay negative", "max_delay", () -> RetryPolicy.builder().maxDelay(-1e-300).build());
        refuses("max_message_age negative", "max_message_age", () -> RetryPolicy.builder().maxMessageAge(-1).build());
        refuses("initial_delay NaN", "initial_delay", () -> RetryPolicy.builder().initialDelay(Double.NaN).build());
        refuses("multiplier +Infinity", "multiplier",
                () -> RetryPolicy.builder().multiplier(Double.POSITIVE_INFINITY).build());
        refuses("max_delay +Infinity", "max_delay",
                () -> RetryPolicy.builder().maxDelay(Double.POSITIVE_INFINITY).build());
        refuses("max_message_age NaN", "max_message_age", () -> RetryPolicy.builder().maxMessageAge(Double.NaN).build());
        refuses("jitter_factor above 1", "jitter_factor", () -> RetryPolicy.builder().jitterFactor(1.5).build());
        refuses("jitter_factor below 0", "jitter_factor", () -> RetryPolicy.builder().jitterFactor(-0.1).build());
        refuses("jitter_factor NaN", "jitter_factor", () -> RetryPolicy.builder().jitterFactor(Double.NaN).build());
        refuses("fixed with a negative delay", "initial_delay", () -> RetryPolicy.fixed(3, -1));
        refuses("give_up_after(-1)", "max_message_age", () -> RetryPolicy.none().giveUpAfter(-1));
        refuses("give_up_after(+Infinity)", "max_message_age",
                () -> RetryPolicy.none().giveUpAfter(Double.POSITIVE_INFINITY));
        refuses("with_jitter(2)", "jitter_factor", () -> RetryPolicy.none().withJitter(2));
        refuses("with_jitter(NaN)", "jitter_factor", () -> RetryPolicy.none().withJitter(Double.NaN));

        RetryPolicy three = RetryPolicy.builder().maxAttempts(3).initialDelay(1).build();
        refuses("attempt 0", "attempt", () -> three.nextDelay(0, 0, false));
        refuses("attempt checked before giving up", "attempt", () -> RetryPolicy.none().nextDelay(0, 0, false));
        refuses("message_age NaN", "message_age", () -> three.nextDelay(1, Double.NaN, false));
        refuses("message_age NaN, checked before giving up", "message_age",
                () -> RetryPolicy.none().nextDelay(1, Double.NaN, false));
        refuses("jittered(NaN)", "delay", () -> RetryPolicy.none().jittered(Double.NaN, fixedDraw(0.5)));
        RetryPolicy jittery = RetryPolicy.builder().maxAttempts(3).initialDelay(1).jitterFactor(0.5).build();
        refuses("a draw of 1.0 is an error, not clamped", "r", () -> jittery.jittered(1, fixedDraw(1.0)));
        refuses("a draw below 0 is an error", "r", () -> jittery.nextDelay(1, 0, true, fixedDraw(-0x1p-60)));
        refuses("a draw of NaN is an error", "r", () -> jittery.jittered(1, fixedDraw(Double.NaN)));

        RetryPolicy aged = RetryPolicy.builder().maxAttempts(5).initialDelay(1).maxMessageAge(60).build();
        same("a negative message_age is young", aged.nextDelay(1, -5, false), 1.0);
        same("message_age just below the limit", aged.nextDelay(1, Math.nextDown(60.0), false), 1.0);
        same("message_age +Infinity is older than any limit", aged.nextDelay(1, Double.POSITIVE_INFINITY, false), NO);
        same("with no limit, any age is retried", three.nextDelay(1, Double.POSITIVE_INFINITY, false), 1.0);

        Counted draws = new Counted(0.5);
        same("jittered(-2) is -2, no draw", jittery.jittered(-2, draws), -2.0);
        same("jittered(-0.0) is -0.0, no draw", jittery.jittered(-0.0, draws), -0.0);
        truth("(none drawn)", draws.draws == 0, draws.draws + " draws");

        Counted zero = new Counted(0);
        same("+Infinity jittered by factor 1 at r = 0 stays +Infinity",
                RetryPolicy.builder().jitterFactor(1).build().jittered(Double.POSITIVE_INFINITY, zero),
                Double.POSITIVE_INFINITY);
        same("... and at r = 2^-55, where r * 2 - 1 rounds to -1",
                RetryPolicy.builder().jitterFactor(1).build().jittered(Double.POSITIVE_INFINITY, fixedDraw(0x1p-55)),
                Double.POSITIVE_INFINITY);
        truth("(the draw is consumed)", zero.draws == 1, zero.draws + " draw");

        RetryPolicy negativeZero = RetryPolicy.builder().maxAttempts(6).initialDelay(7).multiplier(-0.0)
                .jitterFactor(1).build();
        // Ruby's [x, 0.0].max keeps -0.0, where Math.max(-0.0, 0.0) is +0.0.
        same("next_delay keeps -0.0's sign", negativeZero.nextDelay(2, 0, false), -0.0);
        same("next_delay keeps -0.0 unjittered, no draw", negativeZero.nextDelay(2, 0, true, fixedDraw(0.99)), -0.0);
        same("initial_delay -0.0 passes, sign and all",
                RetryPolicy.builder().maxAttempts(3).initialDelay(-0.0).build().schedule(), -0.0, -0.0);
        same("a jittered delay never below zero: factor 1, r = 0",
                RetryPolicy.builder().maxAttempts(3).initialDelay(3).jitterFactor(1).build()
                        .nextDelay(2, 0, true, fixedDraw(0)), 0.0);

        boolean refused = false;
        try {
            RetryPolicy.builder().maxAttempts((1L << 24) + 2).build().schedule();
        } catch (IllegalStateException e) {
            refused = true;
        }
        truth("schedule() refuses more than 2^24 entries", refused, "IllegalStateException");
        RetryPolicy huge = RetryPolicy.builder().maxAttempts(Long.MAX_VALUE).initialDelay(1).maxDelay(30).build();
        same("delays() walks any length lazily", huge.delays().skip(1_000_000).findFirst().orElse(NO), 30.0);
    }

    /** Draws only where jitter applies, and only after deciding not to give up. */
    private static void drawDiscipline() {
        RetryPolicy policy = RetryPolicy.builder().maxAttempts(3).initialDelay(1).jitterFactor(0.5)
                .maxMessageAge(10).build();
        Counted source = new Counted(0.25);
        policy.nextDelay(3, 0, true, source);
        truth("giving up on attempts draws nothing", source.draws == 0, source.draws + " draws");
        policy.nextDelay(1, 10, true, source);
        truth("giving up on age draws nothing", source.draws == 0, source.draws + " draws");
        RetryPolicy.builder().maxAttempts(3).initialDelay(0).jitterFactor(0.5).build().nextDelay(1, 0, true, source);
        truth("a zero delay draws nothing", source.draws == 0, source.draws + " draws");
        RetryPolicy.builder().maxAttempts(3).initialDelay(1).build().nextDelay(1, 0, true, source);
        truth("a zero factor draws nothing", source.draws == 0, source.draws + " draws");
        policy.nextDelay(1, 0, false, source);
        truth("jitter off draws nothing", source.draws == 0, source.draws + " draws");
        same("a jittered call draws once", policy.nextDelay(1, 0, true, source), 0.75);
        truth("(one draw)", source.draws == 1, source.draws + " draw");
    }

    /** The walk's early exits keep schedule()'s bits, and answer far attempts at once. */
    private static void walk() {
        List<RetryPolicy> policies = List.of(
                RetryPolicy.exponential(200, 0.5, 30),
                RetryPolicy.builder().maxAttempts(200).initialDelay(100).multiplier(0.5).maxDelay(30).build(),
                RetryPolicy.builder().maxAttempts(1100).initialDelay(1).multiplier(2).build(),
                RetryPolicy.builder().maxAttempts(1100).initialDelay(1e-300).multiplier(0.5).build(),
                RetryPolicy.builder().maxAttempts(40).initialDelay(7).multiplier(-0.0).build(),
                RetryPolicy.builder().maxAttempts(40).initialDelay(-0.0).multiplier(3).build(),
                RetryPolicy.builder().maxAttempts(40).initialDelay(5).multiplier(0).build(),
                RetryPolicy.builder().maxAttempts(300).initialDelay(3).multiplier(1 + 0x1p-52).maxDelay(3).build(),
                RetryPolicy.builder().maxAttempts(300).initialDelay(0x1p-1074).multiplier(0.75).build(),
                RetryPolicy.builder().maxAttempts(300).initialDelay(Double.MIN_NORMAL).multiplier(1.5)
                        .maxDelay(Double.MIN_VALUE).build());
        for (RetryPolicy policy : policies) {
            double[] schedule = policy.schedule();
            double[] walked = new double[schedule.length];
            for (int attempt = 1; attempt <= schedule.length; attempt++) {
                walked[attempt - 1] = policy.nextDelay(attempt, 0, false).getAsDouble();
            }
            // next_delay clamps below zero; schedules here never go below.
            String shown = "max_attempts " + policy.maxAttempts() + ", initial " + policy.initialDelay()
                    + ", multiplier " + policy.multiplier() + ", cap " + policy.maxDelay();
            same("next_delay(k) has schedule()[k - 1]'s bits: " + shown, walked, schedule);
            same("delays() has schedule()'s bits: " + shown, policy.delays().toArray(), schedule);
        }

        long start = System.nanoTime();
        RetryPolicy capped = RetryPolicy.exponential(Long.MAX_VALUE, 0.5, 30);
        same("attempt 10^9 on a capped policy", capped.nextDelay(1_000_000_000L, 0, false), 30.0);
        same("attempt 2^62 on a capped policy", capped.nextDelay(1L << 62, 0, false), 30.0);
        RetryPolicy uncapped = RetryPolicy.builder().maxAttempts(Long.MAX_VALUE).initialDelay(1).build();
        same("attempt 10^9, uncapped doubling: +Infinity", uncapped.nextDelay(1_000_000_000L, 0, false),
                Double.POSITIVE_INFINITY);
        RetryPolicy halving = RetryPolicy.builder().maxAttempts(Long.MAX_VALUE).initialDelay(1).multiplier(0.5).build();
        same("attempt 10^9, halving: +0.0", halving.nextDelay(1_000_000_000L, 0, false), 0.0);
        RetryPolicy flipping = RetryPolicy.builder().maxAttempts(Long.MAX_VALUE).initialDelay(1).multiplier(-0.0).build();
        same("multiplier -0.0, odd steps left: -0.0", flipping.nextDelay(Long.MAX_VALUE - 1, 0, false), -0.0);
        same("multiplier -0.0, even steps left: +0.0", flipping.nextDelay(Long.MAX_VALUE - 2, 0, false), 0.0);
        RetryPolicy fixedPoint = RetryPolicy.builder().maxAttempts(Long.MAX_VALUE).initialDelay(0x1p-1074)
                .multiplier(0.75).build();
        same("a rounding fixed point (2^-1074 * 0.75 is 2^-1074)", fixedPoint.nextDelay(1L << 50, 0, false),
                0x1p-1074);
        RetryPolicy fixedDelay = RetryPolicy.fixed(Long.MAX_VALUE, 3);
        same("fixed(n, 3): attempt 2^50", fixedDelay.nextDelay(1L << 50, 0, false), 3.0);
        long millis = (System.nanoTime() - start) / 1_000_000;
        truth("far attempts answered at once", millis < 1000, millis + " ms");
    }

    private static void factories() {
        truth("none(): max_attempts 1, multiplier 2, empty schedule",
                RetryPolicy.none().equals(new RetryPolicy(1, 0, 2, 0, 0, 0))
                        && RetryPolicy.none().schedule().length == 0, RetryPolicy.none().toString());
        truth("fixed(n, d): multiplier 1", RetryPolicy.fixed(4, 2.5).equals(new RetryPolicy(4, 2.5, 1, 0, 0, 0)),
                RetryPolicy.fixed(4, 2.5).toString());
        truth("exponential(n, i, m): multiplier 2, jitter 0.2",
                RetryPolicy.exponential(4, 0.5, 9).equals(new RetryPolicy(4, 0.5, 2, 9, 0.2, 0)),
                RetryPolicy.exponential(4, 0.5, 9).toString());
        truth("give_up_after and with_jitter are copies",
                RetryPolicy.fixed(4, 2.5).giveUpAfter(60).withJitter(0.5).equals(new RetryPolicy(4, 2.5, 1, 0, 0.5, 60)),
                RetryPolicy.fixed(4, 2.5).giveUpAfter(60).withJitter(0.5).toString());
        truth("equality tells -0.0 from 0.0 (their schedules differ)",
                !RetryPolicy.fixed(4, -0.0).equals(RetryPolicy.fixed(4, 0.0)), "different");
    }

    public static void main(String[] args) throws InterruptedException {
        workedExamples();
        theDraw();
        defaultSourceThreads();
        decisions();
        drawDiscipline();
        walk();
        factories();
        tally.finish();
    }
}
