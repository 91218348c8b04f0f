using System;
using System.Collections.Generic;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Threading;

// The unit test holds the ops table and its members to protocol.json, so it
// sees them without the adapter's public surface growing.
[assembly: InternalsVisibleTo("RetryPolicyTests")]

namespace AceMQ.Amqp.Conformance
{
    /// <summary>A request that cannot be answered; the message names the field first.</summary>
    public sealed class ProtocolException : Exception
    {
        public ProtocolException(string message) : base(message) { }
    }

    /// <summary>
    /// The protocol (docs/protocol.md) on the port:
    /// request line in, answer line out. Each rule is one sentence there.
    /// </summary>
    public static class Protocol
    {
        // The protocol's limits (docs/protocol.md, Limits). The unit test
        // finds them, and JsonReader.MaxDepth, by name (Max<Limit>, SeedMax) to
        // hold them to protocol.json.
        public const int MaxLineBytes = 1 << 20;      // a longer request line is an error
        public const long MaxScheduleEntries = 1 << 16;
        public const int MaxReplayCalls = 256;
        public const long MaxReplaySkip = 1 << 16;    // draws a replay may discard: 210 refills of MT19937's state
        public const long MaxSampleCount = 1 << 16;   // draws in one sample answer (about 1.3 MB of JSON)
        public const long MaxSampleThreads = 64;      // threads one sample request may start
        public const long MaxSteps = 1 << 20;         // next_delay's cost limit, see WithinCostLimit
        public const long SeedMax = 4294967295L;      // 2^32 - 1: Ruby's init_genrand range

        private static string Show(long n)
        {
            return n.ToString(CultureInfo.InvariantCulture);
        }

        /// <summary>A number as the answers write it: "1.5", "-0.0", "\"NaN\"".</summary>
        private static string Wire(double x)
        {
            if (double.IsNaN(x) || double.IsInfinity(x)) return "\"" + DoubleText.Shortest(x) + "\"";
            return DoubleText.Shortest(x);
        }

        // ---- Fields -----------------------------------------------------------

        /// <summary>
        /// A number field: a JSON number (already read with one correct
        /// rounding, the integer literal -0 as +0.0) or one of the strings
        /// "Infinity", "-Infinity", "NaN". Booleans, null and other strings are errors.
        /// </summary>
        public static double Number(JsonValue v, string path)
        {
            if (v.Kind == JsonKind.Number) return v.Number;
            if (v.Kind == JsonKind.String)
            {
                switch (v.Text)
                {
                    case "Infinity": return double.PositiveInfinity;
                    case "-Infinity": return double.NegativeInfinity;
                    case "NaN": return double.NaN;
                }
            }
            throw new ProtocolException(path + ": must be a number or \"Infinity\", \"-Infinity\", \"NaN\", got " +
                                        Answer.Quote(v));
        }

        /// <summary>
        /// An integer field: only a JSON number written without fraction or
        /// exponent (5, not 5.0 or 5e0), in [lowest, highest].
        /// </summary>
        public static long Integer(JsonValue v, string path, long lowest, long highest)
        {
            string range = "[" + Show(lowest) + ", " + Show(highest) + "]";
            if (v.Kind != JsonKind.Number || !v.IsIntegerLiteral)
            {
                throw new ProtocolException(path + ": must be an integer in " + range +
                                            ", written without fraction or exponent, got " + Answer.Quote(v));
            }
            if (!v.FitsInt64 || v.Int64 < lowest || v.Int64 > highest)
            {
                throw new ProtocolException(path + ": must be in " + range + ", got " + Answer.Quote(v));
            }
            return v.Int64;
        }

        public static JsonValue Required(JsonObject o, string key, string path)
        {
            JsonValue v = o.Get(key);
            if (v == null) throw new ProtocolException(path + ": missing");
            return v;
        }

        /// <summary>r, which must be in [0, 1) whenever it is required, even if no draw ends up taken.</summary>
        public static double Draw(JsonValue v, string path)
        {
            double r = Number(v, path);
            if (!(r >= 0 && r < 1)) throw new ProtocolException(path + ": must be in [0, 1), got " + Wire(r));
            return r;
        }

        /// <summary>Any member not listed (nor in also) is an error naming it.</summary>
        public static void OnlyMembers(JsonObject o, string[] allowed, string prefix, string what, string[] also)
        {
            foreach (string key in o.Keys)
            {
                if (Array.IndexOf(allowed, key) >= 0 || (also != null && Array.IndexOf(also, key) >= 0)) continue;
                throw new ProtocolException(prefix + Answer.Quote(JsonValue.FromString(key)) + ": not a member of " +
                                            what + " (its members: " + string.Join(", ", allowed) + ")");
            }
        }

        // ---- The policy -------------------------------------------------------

        private static readonly string[] ConstructorFields =
        {
            "max_attempts", "initial_delay", "multiplier", "max_delay", "jitter_factor", "max_message_age",
            "give_up_after", "with_jitter",
        };
        private static readonly string[] NoneFields = { "factory", "give_up_after", "with_jitter" };
        private static readonly string[] FixedFields = { "factory", "max_attempts", "delay", "give_up_after", "with_jitter" };
        private static readonly string[] ExponentialFields =
        {
            "factory", "max_attempts", "initial_delay", "max_delay", "give_up_after", "with_jitter",
        };

        // The port's refusal in the protocol's words: "<path>: must be <rule>, got <value>".
        private static ProtocolException Refused(string path, RetryPolicyArgumentException e, double value)
        {
            if (double.IsNaN(value) && e.Rule.Contains("NaN")) return new ProtocolException(path + ": must be " + e.Rule);
            return new ProtocolException(path + ": must be " + e.Rule + ", got " + Wire(value));
        }

        private static double OptionalNumber(JsonObject o, string key, string path, double fallback)
        {
            JsonValue v = o.Get(key);
            return v == null ? fallback : Number(v, path);
        }

        private static RetryPolicy BasePolicy(JsonObject p)
        {
            JsonValue factory = p.Get("factory");
            if (factory == null)
            {
                OnlyMembers(p, ConstructorFields, "policy.", "a constructor policy", null);
                long maxAttempts = 1;
                JsonValue v = p.Get("max_attempts");
                if (v != null) maxAttempts = Integer(v, "policy.max_attempts", long.MinValue, long.MaxValue);
                double initialDelay = OptionalNumber(p, "initial_delay", "policy.initial_delay", 0.0);
                double multiplier = OptionalNumber(p, "multiplier", "policy.multiplier", 2.0);
                double maxDelay = OptionalNumber(p, "max_delay", "policy.max_delay", 0.0);
                double jitterFactor = OptionalNumber(p, "jitter_factor", "policy.jitter_factor", 0.0);
                double maxMessageAge = OptionalNumber(p, "max_message_age", "policy.max_message_age", 0.0);
                try
                {
                    return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, jitterFactor, maxMessageAge);
                }
                catch (RetryPolicyArgumentException e)
                {
                    throw BaseRefused(e, "initial_delay", maxAttempts, initialDelay, multiplier, maxDelay, jitterFactor,
                                      maxMessageAge);
                }
            }
            string name = factory.Kind == JsonKind.String ? factory.Text : null;
            if (name == "none")
            {
                OnlyMembers(p, NoneFields, "policy.", "a policy of factory none", null);
                return RetryPolicy.None();
            }
            if (name == "fixed" || name == "exponential")
            {
                bool isFixed = name == "fixed";
                string delayField = isFixed ? "delay" : "initial_delay";
                OnlyMembers(p, isFixed ? FixedFields : ExponentialFields, "policy.", "a policy of factory " + name, null);
                long maxAttempts = Integer(Required(p, "max_attempts", "policy.max_attempts"), "policy.max_attempts",
                                           long.MinValue, long.MaxValue);
                double delay = Number(Required(p, delayField, "policy." + delayField), "policy." + delayField);
                double maxDelay = isFixed ? 0.0 : OptionalNumber(p, "max_delay", "policy.max_delay", 0.0);
                try
                {
                    return isFixed ? RetryPolicy.Fixed(maxAttempts, delay)
                                   : RetryPolicy.Exponential(maxAttempts, delay, maxDelay);
                }
                catch (RetryPolicyArgumentException e)
                {
                    throw BaseRefused(e, delayField, maxAttempts, delay, isFixed ? 1.0 : 2.0, maxDelay, 0.0, 0.0);
                }
            }
            throw new ProtocolException("policy.factory: must be \"none\", \"fixed\" or \"exponential\", got " +
                                        Answer.Quote(factory));
        }

        // The refusal names the request's field (`delay` for fixed's initial_delay).
        private static ProtocolException BaseRefused(RetryPolicyArgumentException e, string delayField, long maxAttempts,
                                                     double initialDelay, double multiplier, double maxDelay,
                                                     double jitterFactor, double maxMessageAge)
        {
            switch (e.Parameter)
            {
                case "max_attempts":
                    return new ProtocolException("policy.max_attempts: must be at least 1, got " + Show(maxAttempts));
                case "initial_delay": return Refused("policy." + delayField, e, initialDelay);
                case "multiplier": return Refused("policy.multiplier", e, multiplier);
                case "max_delay": return Refused("policy.max_delay", e, maxDelay);
                case "jitter_factor": return Refused("policy.jitter_factor", e, jitterFactor);
                default: return Refused("policy.max_message_age", e, maxMessageAge);
            }
        }

        /// <summary>
        /// The base policy (validated when made), then give_up_after and
        /// with_jitter in that order, whatever their order in the text, each
        /// validating its own argument: a copy cannot repair an invalid base.
        /// </summary>
        public static RetryPolicy PolicyFrom(JsonValue v)
        {
            if (v.Kind != JsonKind.Object) throw new ProtocolException("policy: must be an object, got " + Answer.Quote(v));
            JsonObject p = v.Members;
            RetryPolicy policy = BasePolicy(p);
            JsonValue age = p.Get("give_up_after");
            if (age != null)
            {
                double seconds = Number(age, "policy.give_up_after");
                try
                {
                    policy = policy.GiveUpAfter(seconds);
                }
                catch (RetryPolicyArgumentException e)
                {
                    throw Refused("policy.give_up_after", e, seconds);
                }
            }
            JsonValue factor = p.Get("with_jitter");
            if (factor != null)
            {
                double f = Number(factor, "policy.with_jitter");
                try
                {
                    policy = policy.WithJitter(f);
                }
                catch (RetryPolicyArgumentException e)
                {
                    throw Refused("policy.with_jitter", e, f);
                }
            }
            return policy;
        }

        // ---- The cost limit ---------------------------------------------------

        /// <summary>
        /// A call that gives up, or whose arguments are invalid, walks nothing;
        /// otherwise its answer must rest on at most 2^20 multiplications of
        /// the schedule loop, counting the contract's early exits
        /// (docs/protocol.md, Limits).
        /// </summary>
        public static bool WithinCostLimit(RetryPolicy policy, long attempt, double messageAge)
        {
            if (attempt < 1 || double.IsNaN(messageAge) || policy.GivesUp(attempt, messageAge)) return true;
            double running;
            return policy.Walk(attempt, MaxSteps, out running) <= MaxSteps;
        }

        // One next_delay: the cost limit first, then the port, whose refusals
        // (attempt < 1, NaN age; checked before the give-up test) name the
        // request's fields.
        private static double? Call(RetryPolicy policy, long attempt, double age, string attemptPath, string agePath,
                                    Func<double> source)
        {
            if (!WithinCostLimit(policy, attempt, age))
            {
                throw new ProtocolException(attemptPath + ": " + Show(attempt) +
                    " needs more than 2^20 multiplications on this policy, which does not settle " +
                    "(no cap passed, no zero, no fixed point) within 2^20 steps: the protocol's cost limit");
            }
            try
            {
                return policy.NextDelay(attempt, age, source);
            }
            catch (RetryPolicyArgumentException e)
            {
                if (e.Parameter == "attempt") throw new ProtocolException(attemptPath + ": must be at least 1, got " + Show(attempt));
                throw Refused(agePath, e, age);
            }
        }

        // ---- The ops ------------------------------------------------------------

        internal delegate void OpAnswer(JsonObject request, RetryPolicy policy, Answer output);

        internal sealed class Op
        {
            public readonly string[] Members;
            public readonly OpAnswer Answer;

            public Op(string[] members, OpAnswer answer)
            {
                Members = members;
                Answer = answer;
            }
        }

        // Each op: the members a request of it takes, and its answer; a new op
        // is one more entry here.
        internal static readonly Dictionary<string, Op> Ops = new Dictionary<string, Op>(StringComparer.Ordinal)
        {
            { "schedule", new Op(new[] { "id", "op", "policy" }, AnswerSchedule) },
            { "next_delay", new Op(new[] { "id", "op", "policy", "attempt", "message_age", "jitter", "r" }, AnswerNextDelay) },
            { "jittered", new Op(new[] { "id", "op", "policy", "delay", "r" }, AnswerJittered) },
            { "replay", new Op(new[] { "id", "op", "policy", "seed", "skip", "calls" }, AnswerReplay) },
            { "sample", new Op(new[] { "id", "op", "policy", "delay", "attempt", "count", "threads" }, AnswerSample) },
        };

        // A vector line is a request with its expected answer added; these ride
        // along and are never read.
        internal static readonly string[] VectorLineMembers = { "expect", "expect_error" };

        private static void AnswerSchedule(JsonObject request, RetryPolicy policy, Answer output)
        {
            long entries = policy.MaxAttempts - 1;
            if (entries > MaxScheduleEntries)
            {
                throw new ProtocolException("policy.max_attempts: a schedule of " + Show(entries) +
                                            " entries is more than the protocol's 65536");
            }
            double[] schedule = policy.Schedule();
            output.Ascii("[");
            for (int k = 0; k < schedule.Length; k++)
            {
                if (k > 0) output.Ascii(",");
                output.Number(schedule[k]);
            }
            output.Ascii("]");
        }

        private static void AnswerNextDelay(JsonObject request, RetryPolicy policy, Answer output)
        {
            long attempt = Integer(Required(request, "attempt", "attempt"), "attempt", long.MinValue, long.MaxValue);
            double age = OptionalNumber(request, "message_age", "message_age", 0.0);
            bool jitter = true;
            JsonValue v = request.Get("jitter");
            if (v != null)
            {
                // null is not absent: it is an error too.
                if (!v.IsBoolean) throw new ProtocolException("jitter: must be true or false, got " + Answer.Quote(v));
                jitter = v.Kind == JsonKind.True;
            }
            Func<double> source = null;
            if (jitter)
            {
                // Without jitter r is not read at all: neither required nor checked.
                double r = Draw(Required(request, "r", "r"), "r");
                source = () => r;
            }
            output.Delay(Call(policy, attempt, age, "attempt", "message_age", source));
        }

        private static void AnswerJittered(JsonObject request, RetryPolicy policy, Answer output)
        {
            double delay = Number(Required(request, "delay", "delay"), "delay");
            double r = Draw(Required(request, "r", "r"), "r");
            double jittered;
            try
            {
                jittered = policy.JitteredWithDraw(delay, r);
            }
            catch (RetryPolicyArgumentException e)
            {
                throw Refused("delay", e, delay);
            }
            output.Number(jittered);
        }

        private static void AnswerReplay(JsonObject request, RetryPolicy policy, Answer output)
        {
            long seed = Integer(Required(request, "seed", "seed"), "seed", 0, SeedMax);
            JsonValue skipValue = request.Get("skip");
            long skip = skipValue == null ? 0 : Integer(skipValue, "skip", 0, MaxReplaySkip);
            JsonValue calls = Required(request, "calls", "calls");
            if (calls.Kind != JsonKind.Array)
            {
                throw new ProtocolException("calls: must be an array of [attempt, message_age], got " + Answer.Quote(calls));
            }
            if (calls.Items.Count > MaxReplayCalls)
            {
                throw new ProtocolException("calls: " + Show(calls.Items.Count) + " calls is more than the protocol's 256");
            }
            var attempts = new long[calls.Items.Count];
            var ages = new double[calls.Items.Count];
            for (int k = 0; k < attempts.Length; k++)
            {
                string path = "calls[" + Show(k) + "]";
                JsonValue call = calls.Items[k];
                if (call.Kind != JsonKind.Array || call.Items.Count != 2)
                {
                    throw new ProtocolException(path + ": must be [attempt, message_age], exactly two elements, got " +
                                                Answer.Quote(call));
                }
                attempts[k] = Integer(call.Items[0], path + "[0] (attempt)", long.MinValue, long.MaxValue);
                ages[k] = Number(call.Items[1], path + "[1] (message_age)");
            }
            // One generator for the whole replay; a call that gives up or is
            // not jittered draws nothing from it. Any call that is an error
            // makes the whole request one, so the answer is built aside.
            var ruby = new RubyRandom((uint)seed);
            // Skipped draws let a replay reach the draws after MT19937's refills.
            for (long k = 0; k < skip; k++) ruby.NextDouble();
            Func<double> source = ruby.NextDouble;
            var delays = new double?[attempts.Length];
            for (int k = 0; k < attempts.Length; k++)
            {
                string path = "calls[" + Show(k) + "]";
                delays[k] = Call(policy, attempts[k], ages[k], path + "[0] (attempt)", path + "[1] (message_age)", source);
            }
            output.Ascii("[");
            for (int k = 0; k < delays.Length; k++)
            {
                if (k > 0) output.Ascii(",");
                output.Delay(delays[k]);
            }
            output.Ascii("]");
        }

        /// <summary>
        /// The source sample draws from: the port's DefaultSource, unless the
        /// adapter was started with ACEMQ_DOTNET_SOURCE=system-random (see Program).
        /// </summary>
        public static Func<double> SampleSource = DefaultSource.NextDouble;

        // Draws from the port's default source as the port's users get it:
        // Jittered(delay) or NextDelay(attempt), count times, so consecutive
        // answers are consecutive calls (of this thread's stream). Never
        // reseeded, nothing drawn between. With threads T >= 2, T threads make
        // those calls at once, as a pool of the port's users would (Draws).
        private static void AnswerSample(JsonObject request, RetryPolicy policy, Answer output)
        {
            long count = Integer(Required(request, "count", "count"), "count", 1, long.MaxValue);
            if (count > MaxSampleCount)
            {
                throw new ProtocolException("count: " + Show(count) + " draws is more than the protocol's 65536");
            }
            JsonValue delayValue = request.Get("delay");
            JsonValue attemptValue = request.Get("attempt");
            if ((delayValue == null) == (attemptValue == null))
            {
                throw new ProtocolException(delayValue == null ? "delay: missing, and so is attempt: give exactly one"
                                                               : "attempt: not allowed with delay: give exactly one");
            }
            Func<double> source = SampleSource;
            // The first call's checks come before threads is read and before
            // any draw, so the answer is all or nothing: every later call is
            // the same call, which cannot fail.
            Func<double?> call;
            bool givesUp = false;
            if (delayValue != null)
            {
                double delay = Number(delayValue, "delay");
                try
                {
                    policy.JitteredWithDraw(delay, 0.0);  // refuses NaN; draws nothing
                }
                catch (RetryPolicyArgumentException e)
                {
                    throw Refused("delay", e, delay);
                }
                call = () => policy.Jittered(delay, source);
            }
            else
            {
                long attempt = Integer(attemptValue, "attempt", long.MinValue, long.MaxValue);
                // The cost limit and attempt >= 1, without jitter: no draw.
                givesUp = Call(policy, attempt, 0.0, "attempt", "message_age", null) == null;
                call = () => policy.NextDelay(attempt, 0.0, source);
            }
            JsonValue threadsValue = request.Get("threads");
            int threads = threadsValue == null ? 1 : (int)Integer(threadsValue, "threads", 1, MaxSampleThreads);
            // Gives up: no draw, every time, on any thread.
            double?[] values = givesUp ? new double?[count] : Draws((int)count, threads, call);
            output.Ascii("[");
            for (int k = 0; k < values.Length; k++)
            {
                if (k > 0) output.Ascii(",");
                output.Delay(values[k]);
            }
            output.Ascii("]");
        }

        // count calls: on this thread when threads is 1; else on that many new
        // threads, each held at a CountdownEvent until all have started, then
        // making its share at once (thread i count / threads calls, one more if
        // i < count % threads). No lock around the call: the point is whether
        // the port's default source is safe when its users draw from many
        // threads. The answer is thread 0's draws in its order, then thread
        // 1's, and so on.
        private static double?[] Draws(int count, int threads, Func<double?> call)
        {
            var values = new double?[count];
            if (threads == 1)
            {
                for (int k = 0; k < count; k++) values[k] = call();
                return values;
            }
            var workers = new Thread[threads];
            var failures = new Exception[threads];
            using (var started = new CountdownEvent(threads))
            {
                for (int i = 0, from = 0; i < threads; i++)
                {
                    int index = i;
                    int first = from;
                    int end = from + count / threads + (i < count % threads ? 1 : 0);
                    from = end;
                    workers[i] = new Thread(() =>
                    {
                        try
                        {
                            started.Signal();
                            started.Wait();
                            for (int k = first; k < end; k++) values[k] = call();  // each thread its own slots
                        }
                        catch (Exception e)
                        {
                            failures[index] = e;
                        }
                    });
                    workers[i].IsBackground = true;  // a stuck draw does not keep the process alive
                }
                int running = 0;
                try
                {
                    for (; running < threads; running++) workers[running].Start();
                }
                finally
                {
                    // If a thread could not start, release the ones waiting for it.
                    if (running < threads) started.Signal(threads - running);
                    for (int i = 0; i < running; i++) workers[i].Join();
                }
            }
            for (int i = 0; i < threads; i++)
            {
                // The port failed under threads: an unexpected failure, answered as "internal: ...".
                if (failures[i] != null)
                {
                    throw new InvalidOperationException("sample thread " + Show(i) + " of " + Show(threads) + ": " +
                                                        failures[i].GetType().Name + ": " + failures[i].Message,
                                                        failures[i]);
                }
            }
            return values;  // Join made every thread's writes visible here
        }

        // ---- A line -------------------------------------------------------------

        /// <summary>The answer to one request line (its bytes, without the LF), into output.</summary>
        public static void AnswerLine(byte[] line, int length, Answer output)
        {
            output.Clear();
            JsonValue id = JsonValue.Null;  // null until the request is known to have one
            string error;
            try
            {
                JsonValue request = JsonReader.ParseLine(line, length);
                if (request.Kind != JsonKind.Object)
                {
                    throw new ProtocolException("line: must be a JSON object, got " + Answer.Quote(request));
                }
                JsonObject r = request.Members;
                id = r.Get("id") ?? JsonValue.Null;
                JsonValue opValue = Required(r, "op", "op");
                Op op;
                if (opValue.Kind != JsonKind.String || !Ops.TryGetValue(opValue.Text, out op))
                {
                    throw new ProtocolException("op: must be \"schedule\", \"next_delay\", \"jittered\", \"replay\" or " +
                                                "\"sample\", got " + Answer.Quote(opValue));
                }
                OnlyMembers(r, op.Members, "", "a " + opValue.Text + " request", VectorLineMembers);
                RetryPolicy policy = PolicyFrom(Required(r, "policy", "policy"));
                output.Ascii("{\"id\":").Json(id).Ascii(",\"ok\":true,\"result\":");
                op.Answer(r, policy, output);
                output.Ascii("}");
                return;
            }
            catch (MalformedLineException e)
            {
                error = e.Message;
            }
            catch (ProtocolException e)
            {
                error = e.Message;
            }
            catch (Exception e)
            {
                // Not expected: every rule is checked above. Still an answer,
                // so the conversation goes on, and the message says where to look.
                error = "internal: " + e.GetType().Name + ": " + e.Message;
            }
            output.Clear();
            output.Ascii("{\"id\":").Json(id).Ascii(",\"ok\":false,\"error\":").String(error).Ascii("}");
        }

        /// <summary>The answer to a line longer than the protocol's limit, consumed without being kept.</summary>
        public static void AnswerTooLong(long bytes, Answer output)
        {
            output.Clear();
            output.Ascii("{\"id\":null,\"ok\":false,\"error\":").String(
                "line: " + Show(bytes) + " bytes is longer than the protocol's " + Show(MaxLineBytes)).Ascii("}");
        }
    }
}
