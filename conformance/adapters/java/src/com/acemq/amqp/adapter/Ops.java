package com.acemq.amqp.adapter;

import com.acemq.amqp.RetryPolicy;
import com.acemq.amqp.RetryPolicyArgumentException;
import com.acemq.amqp.RubyRandom;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.CountDownLatch;
import java.util.function.DoubleSupplier;

/**
 * The protocol's ops (docs/protocol.md, Ops), as a table: each op is the
 * members a request of it takes and its answer. A new op is one more entry
 * in {@link #TABLE}.
 */
final class Ops {
    private Ops() {
    }

    // The protocol's limits (docs/protocol.md, Limits). ProtocolTableTest
    // finds them, and Adapter's, by name (MAX_<limit>, SEED_MAX) to hold them
    // to protocol.json.
    static final int MAX_SCHEDULE_ENTRIES = 1 << 16;
    static final int MAX_REPLAY_CALLS = 256;
    static final int MAX_REPLAY_SKIP = 1 << 16;  // draws a replay may discard: 210 refills of MT19937's state
    static final int MAX_SAMPLE_COUNT = 1 << 16; // draws in one sample answer (about 1.3 MB of JSON)
    static final int MAX_SAMPLE_THREADS = 64;    // threads one sample request may start
    static final long MAX_STEPS = 1L << 20;      // next_delay's cost limit, see withinCostLimit
    static final long SEED_MAX = (1L << 32) - 1;

    /** A result: one number or null ("give up"), or an array of them. */
    record Result(boolean array, double[] values, boolean[] giveUp) {
        static Result one(OptionalDouble delay) {
            return new Result(false, new double[] {delay.orElse(0)}, new boolean[] {delay.isEmpty()});
        }

        static Result many(double[] values) {
            return new Result(true, values, new boolean[values.length]);
        }

        void write(AsciiOut out) {
            if (array) {
                out.raw('[');
            }
            for (int k = 0; k < values.length; k++) {
                if (k > 0) {
                    out.raw(',');
                }
                if (giveUp[k]) {
                    out.raw("null");
                } else {
                    out.number(values[k]);
                }
            }
            if (array) {
                out.raw(']');
            }
        }
    }

    @FunctionalInterface
    interface Answer {
        Result answer(Map<String, Object> request, RetryPolicy policy) throws ProtocolError;
    }

    /** An op: every member its requests may have, and its answer. */
    record Op(List<String> members, Answer answer) {
    }

    static final Map<String, Op> TABLE = Map.of(
            "schedule", new Op(List.of("id", "op", "policy"), Ops::schedule),
            "next_delay", new Op(List.of("id", "op", "policy", "attempt", "message_age", "jitter", "r"),
                    Ops::nextDelay),
            "jittered", new Op(List.of("id", "op", "policy", "delay", "r"), Ops::jittered),
            "replay", new Op(List.of("id", "op", "policy", "seed", "skip", "calls"), Ops::replay),
            "sample", new Op(List.of("id", "op", "policy", "delay", "attempt", "count", "threads"), Ops::sample));

    /** A vector line is a request with its expected answer added; these ride along and are never read. */
    static final List<String> VECTOR_LINE_MEMBERS = List.of("expect", "expect_error");

    static final String OP_NAMES = "\"schedule\", \"next_delay\", \"jittered\", \"replay\" or \"sample\"";

    // ---- The cost limit -----------------------------------------------------

    /**
     * Whether next_delay(attempt, messageAge) is within the protocol's cost
     * limit: it gives up or has invalid arguments (nothing to walk), or its
     * answer rests on at most 2^20 multiplications of the schedule loop,
     * counting the contract's early exits. The loop is the protocol's own
     * statement of it (docs/protocol.md, Limits).
     */
    static boolean withinCostLimit(RetryPolicy policy, long attempt, double messageAge) {
        if (attempt < 1 || Double.isNaN(messageAge) || policy.givesUp(attempt, messageAge)) {
            return true;
        }
        if (attempt - 1 <= MAX_STEPS) {
            return true;
        }
        double cap = policy.maxDelay();
        double multiplier = policy.multiplier();
        boolean capIsFinal = cap > 0 && multiplier >= 1;
        double d = policy.initialDelay();
        for (long k = 0; k <= MAX_STEPS; k++) {
            if (capIsFinal && d > cap) {
                return true; // the cap from here on
            }
            if (d == 0) {
                return true; // a zero: its sign goes by parity
            }
            double next = d * multiplier;
            if (Double.doubleToRawLongBits(next) == Double.doubleToRawLongBits(d)) {
                return k + 1 <= MAX_STEPS; // the multiplication that shows it counts
            }
            d = next;
        }
        return false;
    }

    /**
     * One next_delay: the cost limit first, then the port, whose refusals
     * (attempt < 1, a NaN age; checked before the give-up test) name the
     * request's fields.
     */
    private static OptionalDouble call(RetryPolicy policy, long attempt, double age, String attemptPath,
                                       String agePath, boolean jitter, DoubleSupplier source) throws ProtocolError {
        if (!withinCostLimit(policy, attempt, age)) {
            throw ProtocolError.of(attemptPath + ": " + attempt + " needs more than 2^20 multiplications on"
                    + " this policy, which does not settle within 2^20 steps");
        }
        try {
            return policy.nextDelay(attempt, age, jitter, source);
        } catch (RetryPolicyArgumentException e) {
            throw Policies.refused(e.parameter().equals("attempt") ? attemptPath
                    : e.parameter().equals("message_age") ? agePath : e.parameter(), e);
        }
    }

    private static long attempt(Object v, String path) throws ProtocolError {
        return Fields.integer(v, path, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    // ---- The ops ------------------------------------------------------------

    private static Result schedule(Map<String, Object> request, RetryPolicy policy) throws ProtocolError {
        long entries = policy.maxAttempts() - 1;
        if (entries > MAX_SCHEDULE_ENTRIES) {
            throw ProtocolError.of("policy.max_attempts: a schedule of " + entries
                    + " entries is more than the protocol's " + MAX_SCHEDULE_ENTRIES);
        }
        return Result.many(policy.schedule());
    }

    private static Result nextDelay(Map<String, Object> request, RetryPolicy policy) throws ProtocolError {
        long attempt = attempt(Fields.required(request, "attempt", "attempt"), "attempt");
        double age = request.containsKey("message_age") ? Fields.number(request.get("message_age"), "message_age")
                : 0.0;
        boolean jitter = !request.containsKey("jitter") || Fields.bool(request.get("jitter"), "jitter");
        DoubleSupplier source = null;
        if (jitter) {
            // Without jitter r is not read at all: neither required nor checked.
            double r = Fields.draw(Fields.required(request, "r", "r"), "r");
            source = () -> r;
        }
        return Result.one(call(policy, attempt, age, "attempt", "message_age", jitter, source));
    }

    private static Result jittered(Map<String, Object> request, RetryPolicy policy) throws ProtocolError {
        double delay = Fields.number(Fields.required(request, "delay", "delay"), "delay");
        double r = Fields.draw(Fields.required(request, "r", "r"), "r");
        try {
            return Result.one(OptionalDouble.of(policy.jittered(delay, () -> r)));
        } catch (RetryPolicyArgumentException e) {
            throw Policies.refused("delay", e);
        }
    }

    private static Result replay(Map<String, Object> request, RetryPolicy policy) throws ProtocolError {
        long seed = Fields.integer(Fields.required(request, "seed", "seed"), "seed", 0, SEED_MAX);
        long skip = request.containsKey("skip") ? Fields.integer(request.get("skip"), "skip", 0, MAX_REPLAY_SKIP) : 0;
        Object calls = Fields.required(request, "calls", "calls");
        if (!(calls instanceof List<?> list)) {
            throw ProtocolError.of("calls: must be an array of [attempt, message_age], got " + Fields.quote(calls));
        }
        if (list.size() > MAX_REPLAY_CALLS) {
            throw ProtocolError.of("calls: " + list.size() + " calls is more than the protocol's " + MAX_REPLAY_CALLS);
        }
        int n = list.size();
        long[] attempts = new long[n];
        double[] ages = new double[n];
        List<String> paths = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            String path = "calls[" + k + "]";
            if (!(list.get(k) instanceof List<?> pair) || pair.size() != 2) {
                throw ProtocolError.of(path + ": must be [attempt, message_age], exactly two elements, got "
                        + Fields.quote(list.get(k)));
            }
            attempts[k] = attempt(pair.get(0), path + "[0] (attempt)");
            ages[k] = Fields.number(pair.get(1), path + "[1] (message_age)");
            paths.add(path);
        }
        // One generator for the whole replay; a call that gives up or is not
        // jittered draws nothing from it.
        RubyRandom source = new RubyRandom(seed);
        // Skipped draws let a replay reach the draws after MT19937's refills.
        for (long k = 0; k < skip; k++) {
            source.getAsDouble();
        }
        double[] values = new double[n];
        boolean[] giveUp = new boolean[n];
        for (int k = 0; k < n; k++) {
            OptionalDouble delay = call(policy, attempts[k], ages[k], paths.get(k) + "[0] (attempt)",
                    paths.get(k) + "[1] (message_age)", true, source);
            values[k] = delay.orElse(0);
            giveUp[k] = delay.isEmpty();
        }
        return new Result(true, values, giveUp);
    }

    /**
     * Draws from the port's default source (DefaultSource) the way its users
     * get them: {@code jittered(delay)} or {@code nextDelay(attempt)}, count
     * times, through the overloads that take no source. With {@code threads}
     * T >= 2, T threads make those calls at once, as a pool of the port's
     * users would (see {@link #draws}). Nothing else in the adapter draws, so
     * consecutive answers are consecutive calls (of this thread's stream, at
     * T = 1).
     */
    private static Result sample(Map<String, Object> request, RetryPolicy policy) throws ProtocolError {
        long count = Fields.integer(Fields.required(request, "count", "count"), "count", 1, Long.MAX_VALUE);
        if (count > MAX_SAMPLE_COUNT) {
            throw ProtocolError.of("count: " + count + " draws is more than the protocol's " + MAX_SAMPLE_COUNT);
        }
        boolean hasDelay = request.containsKey("delay");
        boolean hasAttempt = request.containsKey("attempt");
        if (hasDelay == hasAttempt) {
            throw ProtocolError.of(hasDelay ? "attempt: not allowed with delay: give exactly one"
                    : "delay: missing, and so is attempt: give exactly one");
        }
        int n = (int) count;
        // The first call's checks come before threads is read and before any
        // draw, so the answer is all or nothing: every later call is the same call.
        DoubleSupplier call;
        boolean givesUp = false;
        if (hasDelay) {
            double delay = Fields.number(request.get("delay"), "delay");
            if (Double.isNaN(delay)) {
                throw ProtocolError.of("delay: must be a number, not NaN");
            }
            call = () -> policy.jittered(delay);
        } else {
            long attempt = attempt(request.get("attempt"), "attempt");
            // The cost limit and attempt >= 1, without a draw.
            givesUp = call(policy, attempt, 0.0, "attempt", "message_age", false, null).isEmpty();
            call = () -> policy.nextDelay(attempt).getAsDouble();
        }
        int threads = request.containsKey("threads")
                ? (int) Fields.integer(request.get("threads"), "threads", 1, MAX_SAMPLE_THREADS) : 1;
        boolean[] giveUp = new boolean[n];
        if (givesUp) {
            java.util.Arrays.fill(giveUp, true); // gives up: no draw, every time, on any thread
            return new Result(true, new double[n], giveUp);
        }
        return new Result(true, draws(n, threads, call), giveUp);
    }

    /**
     * count calls: on this thread when threads is 1; else on that many new
     * threads, each held at a latch until all have started, then making its
     * share at once (thread i count / threads calls, one more if
     * i < count % threads). No lock around the call: the point is whether
     * the port's default source is safe when its users draw from many
     * threads. The answer is thread 0's draws in its order, then thread 1's,
     * and so on.
     */
    private static double[] draws(int count, int threads, DoubleSupplier call) {
        double[] values = new double[count];
        if (threads == 1) {
            for (int k = 0; k < count; k++) {
                values[k] = call.getAsDouble();
            }
            return values;
        }
        CountDownLatch started = new CountDownLatch(threads);
        Thread[] workers = new Thread[threads];
        Throwable[] failures = new Throwable[threads];
        for (int i = 0, from = 0; i < threads; i++) {
            int index = i;
            int first = from;
            int end = from + count / threads + (i < count % threads ? 1 : 0);
            from = end;
            workers[i] = new Thread(() -> {
                try {
                    started.countDown();
                    started.await();
                    for (int k = first; k < end; k++) {
                        values[k] = call.getAsDouble(); // each thread its own slots
                    }
                } catch (Throwable e) {
                    failures[index] = e;
                }
            }, "sample-" + i);
            workers[i].setDaemon(true); // a stuck draw does not keep the JVM alive
        }
        int running = 0;
        try {
            for (; running < threads; running++) {
                workers[running].start();
            }
        } finally {
            // If a thread could not start, release the ones waiting for it.
            for (int k = running; k < threads; k++) {
                started.countDown();
            }
            joinAll(workers, running);
        }
        for (int i = 0; i < threads; i++) {
            if (failures[i] != null) {
                // The port failed under threads: say so, as any unexpected failure ("internal: ...").
                throw new IllegalStateException("sample thread " + i + " of " + threads + ": " + failures[i],
                        failures[i]);
            }
        }
        return values; // join made every thread's writes visible here
    }

    private static void joinAll(Thread[] workers, int started) {
        boolean interrupted = false;
        for (int i = 0; i < started; i++) {
            while (true) {
                try {
                    workers[i].join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // nothing here interrupts; keep waiting, and keep the flag
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
