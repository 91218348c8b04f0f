// The .NET member of the AceMQ retry-policy family: a port of the Ruby class
// AceMQ::AMQP::RetryPolicy, base class library only, written from
// docs/contract.md. The arithmetic is a cross-language contract: every
// operation below is one binary64 operation, rounded to nearest, in the
// reference's order, so this class agrees with Ruby, C++, Java, Go and
// Python to the bit. `retry-policy check --impl "mono RetryPolicyAdapter.exe"`
// proves it.
//
// Like the C++ port, and unlike the reference, it validates: bad input is a
// RetryPolicyArgumentException naming the parameter and the value.
//
// A note on constants: Mono's C# compiler reads double literals with Mono's
// own decimal parser, which is not correctly rounded (4e-106 compiles to the
// double after the right one). Every literal in this port is an exact small
// integer or a power of two, which no parser gets wrong.

using System;
using System.Collections.Generic;

namespace AceMQ.Amqp
{
    /// <summary>
    /// An invalid parameter or argument, named with its value:
    /// "RetryPolicy: jitter_factor must be in [0, 1], got 1.5".
    /// </summary>
    public sealed class RetryPolicyArgumentException : ArgumentException
    {
        internal RetryPolicyArgumentException(string where, string parameter, string rule, string value)
            : base(where + ": " + parameter + " must be " + rule + ", got " + value, parameter)
        {
            Where = where;
            Parameter = parameter;
            Rule = rule;
            Value = value;
        }

        /// <summary>The method that refused: RetryPolicy, give_up_after, with_jitter, next_delay, jittered.</summary>
        public string Where { get; private set; }

        /// <summary>The parameter, by the contract's name (max_attempts, jitter_factor, attempt, r, ...).</summary>
        public string Parameter { get; private set; }

        /// <summary>What the value must be, e.g. "in [0, 1]".</summary>
        public string Rule { get; private set; }

        /// <summary>The refused value as text (shortest round-trip form for a double).</summary>
        public string Value { get; private set; }

        // ArgumentException.Message appends "Parameter name: ..." on a line of
        // its own; the contract's message is one line and names it already.
        public override string Message
        {
            get { return Where + ": " + Parameter + " must be " + Rule + ", got " + Value; }
        }
    }

    /// <summary>
    /// How long to wait before redelivering a message, and when to give up.
    /// Immutable: the copies (GiveUpAfter, WithJitter) return new policies.
    /// Durations are seconds as binary64 doubles, as the contract has them
    /// (TimeSpan counts 100 ns ticks and could not hold the contract's bits).
    /// </summary>
    public sealed class RetryPolicy : IEquatable<RetryPolicy>
    {
        /// <summary>Schedule() refuses more entries than this, as the C++ port does; Delays() walks any length.</summary>
        public const long MaxScheduleLength = 1L << 24;

        private readonly long maxAttempts;
        private readonly double initialDelay;
        private readonly double multiplier;
        private readonly double maxDelay;
        private readonly double jitterFactor;
        private readonly double maxMessageAge;

        /// <summary>
        /// A policy from the six parameters, with the reference's defaults;
        /// validated in the reference's order, the first invalid one named.
        /// </summary>
        /// <param name="maxAttempts">total deliveries, including the first; at least 1</param>
        /// <param name="initialDelay">seconds before the second attempt; finite, >= 0</param>
        /// <param name="multiplier">what the delay is multiplied by each time; finite, >= 0</param>
        /// <param name="maxDelay">the ceiling in seconds, 0 for none; finite, >= 0</param>
        /// <param name="jitterFactor">how far a delay may move either side; in [0, 1]</param>
        /// <param name="maxMessageAge">give up on anything older, 0 for never; finite, >= 0</param>
        public RetryPolicy(long maxAttempts = 1, double initialDelay = 0.0, double multiplier = 2.0,
                           double maxDelay = 0.0, double jitterFactor = 0.0, double maxMessageAge = 0.0)
        {
            const string where = "RetryPolicy";
            if (maxAttempts < 1)
            {
                throw new RetryPolicyArgumentException(where, "max_attempts", "at least 1",
                    maxAttempts.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
            RequireFiniteNonNegative(where, "initial_delay", initialDelay);
            RequireFiniteNonNegative(where, "multiplier", multiplier);
            RequireFiniteNonNegative(where, "max_delay", maxDelay);
            RequireJitterFactor(where, jitterFactor);
            RequireFiniteNonNegative(where, "max_message_age", maxMessageAge);
            this.maxAttempts = maxAttempts;
            this.initialDelay = initialDelay;
            this.multiplier = multiplier;
            this.maxDelay = maxDelay;
            this.jitterFactor = jitterFactor;
            this.maxMessageAge = maxMessageAge;
        }

        /// <summary>One delivery, no second chance.</summary>
        public static RetryPolicy None()
        {
            return new RetryPolicy(maxAttempts: 1);
        }

        /// <summary>The same wait every time, with no jitter.</summary>
        public static RetryPolicy Fixed(long maxAttempts, double delay)
        {
            return new RetryPolicy(maxAttempts, delay, 1.0);
        }

        /// <summary>Doubling delays with 20% jitter; maxDelay 0 means no cap.</summary>
        public static RetryPolicy Exponential(long maxAttempts, double initialDelay, double maxDelay = 0.0)
        {
            return new RetryPolicy(maxAttempts, initialDelay, 2.0, maxDelay, JitterOfExponential);
        }

        // 0.2, the one inexact constant of the port, built from its bits (the
        // double nearest 1/5) so that no compiler's literal parsing is trusted.
        private static readonly double JitterOfExponential = BitConverter.Int64BitsToDouble(0x3FC999999999999AL);

        /// <summary>A copy that gives up on a message at least <paramref name="maxMessageAge"/> seconds old.</summary>
        public RetryPolicy GiveUpAfter(double maxMessageAge)
        {
            RequireFiniteNonNegative("give_up_after", "max_message_age", maxMessageAge);
            return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, jitterFactor, maxMessageAge);
        }

        /// <summary>A copy with another jitter factor, in [0, 1].</summary>
        public RetryPolicy WithJitter(double jitterFactor)
        {
            RequireJitterFactor("with_jitter", jitterFactor);
            return new RetryPolicy(maxAttempts, initialDelay, multiplier, maxDelay, jitterFactor, maxMessageAge);
        }

        public long MaxAttempts { get { return maxAttempts; } }
        public double InitialDelay { get { return initialDelay; } }
        public double Multiplier { get { return multiplier; } }
        public double MaxDelay { get { return maxDelay; } }
        public double JitterFactor { get { return jitterFactor; } }
        public double MaxMessageAge { get { return maxMessageAge; } }

        /// <summary>
        /// The delays without jitter: MaxAttempts - 1 of them. The cap applies
        /// to each entry, never to the running value, and the running value is
        /// rounded after every multiplication (no closed form: initial *
        /// multiplier^k differs in the last bit). More than 2^24 entries is an
        /// InvalidOperationException; Delays() walks any length.
        /// </summary>
        public double[] Schedule()
        {
            long entries = maxAttempts - 1;
            if (entries > MaxScheduleLength)
            {
                throw new InvalidOperationException("RetryPolicy: a schedule of " + entries +
                    " entries is more than 2^24; walk it with Delays()");
            }
            var delays = new double[entries];
            double d = initialDelay;
            for (long i = 0; i < entries; i++)
            {
                delays[i] = Capped(d);
                d = (double)(d * multiplier);
            }
            return delays;
        }

        /// <summary>The schedule, lazily, with the same bits as Schedule().</summary>
        public IEnumerable<double> Delays()
        {
            double d = initialDelay;
            for (long i = 1; i < maxAttempts; i++)
            {
                yield return Capped(d);
                d = (double)(d * multiplier);
            }
        }

        private double Capped(double d)
        {
            return maxDelay > 0 && d > maxDelay ? maxDelay : d;
        }

        /// <summary>
        /// The schedule's loop from InitialDelay to the running value before
        /// entry <paramref name="attempt"/> (from 1), with the contract's early
        /// exits, which keep the bits: the running value has passed the cap
        /// with multiplier >= 1 (it can only grow), is a zero (only its sign
        /// can change, by parity), or maps to the same bits (+Infinity, or a
        /// rounding fixed point). Returns how many multiplications the answer
        /// rests on; counting stops after <paramref name="limit"/> (returning
        /// limit + 1), so a caller can bound the walk (the protocol's cost limit).
        /// </summary>
        public long Walk(long attempt, long limit, out double running)
        {
            bool capIsFinal = maxDelay > 0 && multiplier >= 1;
            double d = initialDelay;
            for (long k = 0; k < attempt - 1; k++)
            {
                if (k > limit)
                {
                    running = d;
                    return limit + 1;
                }
                if (capIsFinal && d > maxDelay)
                {
                    running = d;
                    return k;
                }
                if (d == 0)
                {
                    // A zero stays a zero; under multiplier -0.0 its sign flips
                    // once a step, so the parity of the steps left settles it.
                    if (IsNegative(multiplier) && (attempt - 1 - k) % 2 == 1) d = -d;
                    running = d;
                    return k;
                }
                double next = (double)(d * multiplier);
                // Bits, not values, so that -0.0 and 0.0 stay apart.
                if (BitConverter.DoubleToInt64Bits(next) == BitConverter.DoubleToInt64Bits(d))
                {
                    running = d;
                    return k + 1;
                }
                d = next;
            }
            running = d;
            return attempt - 1;
        }

        /// <summary>
        /// Whether NextDelay gives up: the last attempt has been made, or the
        /// message is at least MaxMessageAge old (0 means never).
        /// </summary>
        public bool GivesUp(long attempt, double messageAge)
        {
            return attempt >= maxAttempts || (maxMessageAge > 0 && messageAge >= maxMessageAge);
        }

        /// <summary>
        /// Schedule entry <paramref name="attempt"/> (from 1), without jitter
        /// and before the clamp at zero; null when the policy gives up. The
        /// arguments are checked before the give-up test.
        /// </summary>
        public double? Entry(long attempt, double messageAge = 0.0)
        {
            CheckCall(attempt, messageAge);
            if (GivesUp(attempt, messageAge)) return null;
            double running;
            Walk(attempt, long.MaxValue - 1, out running);
            return Capped(running);
        }

        /// <summary>
        /// How long to wait after <paramref name="attempt"/> (from 1) failed,
        /// jittered with a draw from DefaultSource; null to give up.
        /// </summary>
        public double? NextDelay(long attempt, double messageAge = 0.0, bool jitter = true)
        {
            return NextDelay(attempt, messageAge, jitter ? DefaultSourceDraw : null);
        }

        private static readonly Func<double> DefaultSourceDraw = DefaultSource.NextDouble;

        /// <summary>
        /// How long to wait after <paramref name="attempt"/> failed, jittered
        /// with one draw from <paramref name="source"/> (Ruby's Kernel.rand: a
        /// RubyRandom to replay a Ruby consumer), or without jitter when
        /// source is null; null to give up. A draw is taken only when jitter
        /// applies, and only after the policy has decided not to give up.
        /// </summary>
        public double? NextDelay(long attempt, double messageAge, Func<double> source)
        {
            double? entry = Entry(attempt, messageAge);
            if (entry == null) return null;
            double delay = entry.Value;
            if (source != null && JitterApplies(delay)) delay = ApplyDraw(delay, source());
            return AtLeastZero(delay);
        }

        /// <summary>
        /// The delay moved either side by up to JitterFactor, with a draw from
        /// DefaultSource taken only when jitter applies (a positive factor and
        /// delay). NaN is refused.
        /// </summary>
        public double Jittered(double delay)
        {
            return Jittered(delay, DefaultSourceDraw);
        }

        /// <summary>Jittered with the draw taken from <paramref name="source"/>.</summary>
        public double Jittered(double delay, Func<double> source)
        {
            if (double.IsNaN(delay))
            {
                throw new RetryPolicyArgumentException("jittered", "delay", "a number, not NaN", "NaN");
            }
            if (!JitterApplies(delay)) return delay;
            return ApplyDraw(delay, source());
        }

        /// <summary>Jittered with the draw given.</summary>
        public double JitteredWithDraw(double delay, double r)
        {
            return Jittered(delay, () => r);
        }

        private bool JitterApplies(double delay)
        {
            return jitterFactor > 0 && delay > 0;
        }

        // delay * (1 + (((r * 2) - 1) * jitter_factor)), each operation rounded
        // to binary64 in that order. The C# specification lets a runtime keep
        // intermediates in a wider format; an explicit (double) cast forces the
        // rounding, so every step is cast. No Math.FusedMultiplyAdd: it rounds
        // once where the contract rounds twice.
        private double ApplyDraw(double delay, double r)
        {
            if (!(r >= 0 && r < 1))
            {
                // A draw outside [0, 1) is an error, never clamped.
                throw new RetryPolicyArgumentException("jitter", "draw r", "in [0, 1)", DoubleText.Shortest(r));
            }
            double t1 = (double)(r * 2);
            double t2 = (double)(t1 - 1);
            double t3 = (double)(t2 * jitterFactor);
            double t4 = (double)(1 + t3);
            double jittered = (double)(delay * t4);
            // The one NaN this arithmetic can make from valid input is
            // +Infinity * 0 (factor 1, r <= 2^-55): a delay that was infinite
            // stays infinite, as the contract decides. The draw is consumed.
            if (double.IsNaN(jittered)) return delay;
            return jittered;
        }

        // Ruby's [delay, 0.0].max returns the first of two equal values, so
        // -0.0 stays -0.0. Not Math.Max: Math.Max(-0.0, 0.0) is +0.0.
        private static double AtLeastZero(double delay)
        {
            return delay < 0 ? 0.0 : delay;
        }

        private static void CheckCall(long attempt, double messageAge)
        {
            if (attempt < 1)
            {
                throw new RetryPolicyArgumentException("next_delay", "attempt", "at least 1",
                    attempt.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
            if (double.IsNaN(messageAge))
            {
                throw new RetryPolicyArgumentException("next_delay", "message_age", "a number, not NaN", "NaN");
            }
        }

        // -0.0 passes: it is not below zero, and its sign is kept as Ruby keeps it.
        private static void RequireFiniteNonNegative(string where, string name, double x)
        {
            if (double.IsNaN(x) || double.IsInfinity(x) || x < 0)
            {
                throw new RetryPolicyArgumentException(where, name, "finite and >= 0", DoubleText.Shortest(x));
            }
        }

        // Written so that NaN fails too: it is in no interval.
        private static void RequireJitterFactor(string where, double f)
        {
            if (!(f >= 0 && f <= 1))
            {
                throw new RetryPolicyArgumentException(where, "jitter_factor", "in [0, 1]", DoubleText.Shortest(f));
            }
        }

        private static bool IsNegative(double x)
        {
            return BitConverter.DoubleToInt64Bits(x) < 0;
        }

        /// <summary>
        /// The six values compared with ==, as the C++ port's equality does:
        /// 0.0 equals -0.0 here even though their schedules differ in sign bits.
        /// </summary>
        public bool Equals(RetryPolicy other)
        {
            return other != null && maxAttempts == other.maxAttempts && initialDelay == other.initialDelay &&
                   multiplier == other.multiplier && maxDelay == other.maxDelay &&
                   jitterFactor == other.jitterFactor && maxMessageAge == other.maxMessageAge;
        }

        public override bool Equals(object obj)
        {
            return Equals(obj as RetryPolicy);
        }

        public override int GetHashCode()
        {
            // + 0.0 maps -0.0 to 0.0, so that equal policies hash alike.
            unchecked
            {
                int h = maxAttempts.GetHashCode();
                h = h * 31 + (initialDelay + 0.0).GetHashCode();
                h = h * 31 + (multiplier + 0.0).GetHashCode();
                h = h * 31 + (maxDelay + 0.0).GetHashCode();
                h = h * 31 + (jitterFactor + 0.0).GetHashCode();
                return h * 31 + (maxMessageAge + 0.0).GetHashCode();
            }
        }

        public override string ToString()
        {
            return "RetryPolicy(max_attempts: " + maxAttempts.ToString(System.Globalization.CultureInfo.InvariantCulture) +
                   ", initial_delay: " + DoubleText.Shortest(initialDelay) +
                   ", multiplier: " + DoubleText.Shortest(multiplier) + ", max_delay: " + DoubleText.Shortest(maxDelay) +
                   ", jitter_factor: " + DoubleText.Shortest(jitterFactor) +
                   ", max_message_age: " + DoubleText.Shortest(maxMessageAge) + ")";
        }
    }
}
