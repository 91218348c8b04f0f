// The .NET port's unit test, without NUnit: the contract's worked examples
// and decisions bit for bit (BitConverter.DoubleToInt64Bits), the number
// reading and writing the adapter relies on, each Mono trap, and the
// protocol's line rules. Prints one line a check; exits 1 if any fails.
//
//   mono RetryPolicyTests.exe [VECTORS_DIR [PROTOCOL_JSON]]
//
// VECTORS_DIR (conformance/vectors) adds a round trip of every number in the
// vector files through the reader and the writer; PROTOCOL_JSON
// (conformance/protocol/protocol.json) holds the adapter's limits, ops and
// members to the protocol's table.
//
// Expected doubles are written as their bits, or as text read by the port's
// own DecimalParser, whose reading is itself checked against bits here:
// Mono's C# compiler reads double literals with Mono's double.Parse, which is
// not correctly rounded (4e-106 compiles to the double after it).

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Numerics;
using System.Text;
using System.Threading;
using AceMQ.Amqp;
using AceMQ.Amqp.Conformance;

namespace AceMQ.Amqp.Tests
{
    public static class Program
    {
        private static int passed;
        private static int failed;

        private static void Pass(string what)
        {
            passed++;
            Console.WriteLine("ok    " + what);
        }

        private static void Fail(string what, string why)
        {
            failed++;
            Console.WriteLine("FAIL  " + what + ": " + why);
        }

        private static long Bits(double x)
        {
            return BitConverter.DoubleToInt64Bits(x);
        }

        private static double FromBits(long bits)
        {
            return BitConverter.Int64BitsToDouble(bits);
        }

        private static string Show(double x)
        {
            return DoubleText.Shortest(x) + " (0x" + Bits(x).ToString("X16") + ")";
        }

        // A double from its text, read by the port's own parser (checked below).
        private static double D(string text)
        {
            double x;
            if (!DecimalParser.TryParse(text, 0, text.Length, out x)) throw new ArgumentException("beyond binary64: " + text);
            return x;
        }

        private static readonly double NegativeZero = FromBits(long.MinValue);

        // ---- The kinds of assertion ---------------------------------------------

        private static void SameBits(string what, double? got, double? want)
        {
            if (got.HasValue != want.HasValue)
            {
                Fail(what, "got " + (got.HasValue ? Show(got.Value) : "null") + ", want " + (want.HasValue ? Show(want.Value) : "null"));
            }
            else if (got.HasValue && Bits(got.Value) != Bits(want.Value))
            {
                Fail(what, "got " + Show(got.Value) + ", want " + Show(want.Value));
            }
            else
            {
                Pass(what);
            }
        }

        private static void SameBits(string what, IList<double?> got, IList<double?> want)
        {
            if (got.Count != want.Count)
            {
                Fail(what, got.Count + " values, want " + want.Count);
                return;
            }
            for (int i = 0; i < got.Count; i++)
            {
                if (got[i].HasValue != want[i].HasValue || (got[i].HasValue && Bits(got[i].Value) != Bits(want[i].Value)))
                {
                    Fail(what, "[" + i + "] got " + (got[i].HasValue ? Show(got[i].Value) : "null") + ", want " +
                               (want[i].HasValue ? Show(want[i].Value) : "null"));
                    return;
                }
            }
            Pass(what);
        }

        private static void SameBits(string what, double[] got, params string[] want)
        {
            var g = new List<double?>();
            foreach (double x in got) g.Add(x);
            var w = new List<double?>();
            foreach (string s in want) w.Add(s == null ? (double?)null : D(s));
            SameBits(what, g, w);
        }

        private static void SameText(string what, string got, string want)
        {
            if (got == want) Pass(what);
            else Fail(what, "got \"" + got + "\", want \"" + want + "\"");
        }

        private static void IsTrue(string what, bool condition, string why)
        {
            if (condition) Pass(what);
            else Fail(what, why);
        }

        private static void Throws<T>(string what, Action action, string messageHas) where T : Exception
        {
            try
            {
                action();
                Fail(what, "no " + typeof(T).Name);
            }
            catch (T e)
            {
                if (messageHas != null && !e.Message.Contains(messageHas)) Fail(what, "message \"" + e.Message + "\" lacks \"" + messageHas + "\"");
                else Pass(what + " (" + e.Message + ")");
            }
            catch (Exception e)
            {
                Fail(what, "threw " + e.GetType().Name + ": " + e.Message + ", want " + typeof(T).Name);
            }
        }

        private static Func<double> Always(double r)
        {
            return () => r;
        }

        // ---- The contract: worked examples (docs/contract.md §6) ---------------

        private static void WorkedExamples()
        {
            SameBits("exponential(5, 0.5, 3.0).schedule", RetryPolicy.Exponential(5, D("0.5"), 3).Schedule(),
                     "0.5", "1.0", "2.0", "3.0");
            SameBits("exponential(10, 0.5, 30).schedule", RetryPolicy.Exponential(10, D("0.5"), 30).Schedule(),
                     "0.5", "1.0", "2.0", "4.0", "8.0", "16.0", "30.0", "30.0", "30.0");
            SameBits("the cap applies to each entry, never to the running value",
                     new RetryPolicy(6, 100, D("0.5"), 30).Schedule(), "30.0", "30.0", "25.0", "12.5", "6.25");
            SameBits("rounded after every multiplication: no closed form",
                     new RetryPolicy(4, D("0.1"), 3).Schedule(), "0.1", "0.30000000000000004", "0.9000000000000001");
            double[] overflow = new RetryPolicy(1100, 1, 2).Schedule();
            SameBits("uncapped doubling: entry 1024 is 2^1023", overflow[1023], FromBits(0x7FE0000000000000L));
            SameBits("uncapped doubling: schedule.last is Infinity", overflow[overflow.Length - 1], double.PositiveInfinity);
            SameBits("multiplier -0.0: the sign of a zero alternates",
                     new RetryPolicy(6, 7, NegativeZero).Schedule(), "7.0", "-0.0", "0.0", "-0.0", "0.0");
            SameBits("none() has an empty schedule", RetryPolicy.None().Schedule());

            SameBits("jittered(1.5), factor 0.2, r = 0", new RetryPolicy(jitterFactor: D("0.2")).JitteredWithDraw(D("1.5"), 0),
                     D("1.2000000000000002"));
            // delay + delay * t3 and fma(delay, t3, delay) give ...253.
            SameBits("jittered(0.7), factor 0.3, r = 0x1.5876015e4d702p-6 (FMA witness)",
                     new RetryPolicy(jitterFactor: D("0.3")).JitteredWithDraw(D("0.7"), FromBits(0x3F95876015E4D702L)),
                     FromBits(0x3FDFECD566F986EDL));
            // fma(r * 2 - 1, f, 1) gives 2.4566517472899405.
            SameBits("jittered(2), factor 0.3 (the scale's FMA witness)",
                     new RetryPolicy(jitterFactor: D("0.3")).JitteredWithDraw(2, FromBits(0x3FEC2D68C55C931EL)),
                     FromBits(0x4003A73908022C22L));
            SameBits("jittered(8.0), factor 0.5, r = 1 - 2^-53: the closed top, a tie to even",
                     new RetryPolicy(jitterFactor: D("0.5")).JitteredWithDraw(8, FromBits(0x3FEFFFFFFFFFFFFFL)), 12.0);
            SameBits("next_delay(1), initial 5, factor 1, r = 0", new RetryPolicy(3, 5, jitterFactor: 1).NextDelay(1, 0, Always(0)), 0.0);
            SameBits("next_delay(3): jitter after the cap",
                     new RetryPolicy(4, 1, D("0.5"), D("0.3"), D("0.5")).NextDelay(3, 0, Always(D("0.999"))), D("0.37475"));

            var ruby = new RubyRandom(42);
            SameBits("srand(42): the first three draws", new[] { ruby.NextDouble(), ruby.NextDouble(), ruby.NextDouble() },
                     "0.3745401188473625", "0.9507143064099162", "0.7319939418114051");
            var policy = RetryPolicy.Exponential(5, D("0.5"));
            var replay = new RubyRandom(42);
            var delays = new List<double?>();
            for (long attempt = 1; attempt <= 5; attempt++) delays.Add(policy.NextDelay(attempt, 0, replay.NextDouble));
            SameBits("exponential(5, 0.5), srand(42): next_delay(1..5)", delays,
                     new double?[] { D("0.4749080237694725"), D("1.1802857225639665"), D("2.1855951534491243"), D("4.157853574715259"), null });
            SameBits("fixed(3, 1.0).next_delay(3) gives up", RetryPolicy.Fixed(3, 1).NextDelay(3, 0, false), null);
            SameBits("the age limit is inclusive", new RetryPolicy(5, 1, maxMessageAge: 60).NextDelay(1, 60, false), null);
        }

        // ---- The contract: decisions ----------------------------------------------

        private static void Decisions()
        {
            Throws<RetryPolicyArgumentException>("max_attempts < 1 is an error", () => new RetryPolicy(0), "max_attempts must be at least 1, got 0");
            Throws<RetryPolicyArgumentException>("a negative initial_delay is an error", () => new RetryPolicy(1, -1), "initial_delay must be finite and >= 0, got -1.0");
            Throws<RetryPolicyArgumentException>("a NaN multiplier is an error", () => new RetryPolicy(1, 0, double.NaN), "multiplier must be finite and >= 0, got NaN");
            Throws<RetryPolicyArgumentException>("an infinite max_delay is an error", () => new RetryPolicy(1, 0, 2, double.PositiveInfinity), "max_delay must be finite and >= 0, got Infinity");
            Throws<RetryPolicyArgumentException>("jitter_factor above 1 is an error", () => new RetryPolicy(jitterFactor: D("1.5")), "RetryPolicy: jitter_factor must be in [0, 1], got 1.5");
            Throws<RetryPolicyArgumentException>("a NaN jitter_factor is an error", () => new RetryPolicy(jitterFactor: double.NaN), "jitter_factor");
            Throws<RetryPolicyArgumentException>("a negative max_message_age is an error", () => new RetryPolicy(maxMessageAge: -1), "max_message_age");
            Throws<RetryPolicyArgumentException>("give_up_after validates its age", () => RetryPolicy.None().GiveUpAfter(double.NaN), "give_up_after: max_message_age");
            Throws<RetryPolicyArgumentException>("with_jitter validates its factor", () => RetryPolicy.None().WithJitter(2), "with_jitter: jitter_factor must be in [0, 1], got 2.0");
            Throws<RetryPolicyArgumentException>("a copy cannot repair its base", () => new RetryPolicy(jitterFactor: 2).WithJitter(D("0.5")), "jitter_factor");
            Throws<RetryPolicyArgumentException>("attempt < 1 is an error, before the give-up test", () => RetryPolicy.None().NextDelay(0, 0, false), "attempt must be at least 1, got 0");
            Throws<RetryPolicyArgumentException>("a NaN message_age is an error", () => RetryPolicy.None().NextDelay(1, double.NaN, false), "message_age");
            Throws<RetryPolicyArgumentException>("jittered(NaN) is an error", () => RetryPolicy.None().Jittered(double.NaN, Always(0)), "delay");
            Throws<RetryPolicyArgumentException>("a draw outside [0, 1) is an error, never clamped",
                () => new RetryPolicy(jitterFactor: 1).JitteredWithDraw(1, 1.0), "draw r must be in [0, 1), got 1.0");

            var negative = new RetryPolicy(3, NegativeZero, jitterFactor: D("0.5"));
            SameBits("-0.0 passes validation and keeps its sign", negative.InitialDelay, NegativeZero);
            // Ruby's [delay, 0.0].max keeps -0.0, where Math.Max(-0.0, 0.0) is +0.0.
            SameBits("next_delay keeps -0.0 ([delay, 0.0].max, not Math.Max)", negative.NextDelay(1, 0, Always(D("0.5"))), NegativeZero);
            SameBits("next_delay(2) of multiplier -0.0 is -0.0", new RetryPolicy(6, 7, NegativeZero).NextDelay(2, 0, false), NegativeZero);
            var aged = new RetryPolicy(5, 1, maxMessageAge: 60);
            SameBits("a negative message_age is young", aged.NextDelay(1, -1, false), 1.0);
            SameBits("+Infinity is older than any limit", aged.NextDelay(1, double.PositiveInfinity, false), null);
            SameBits("with no limit any age is retried", new RetryPolicy(5, 1).NextDelay(1, double.PositiveInfinity, false), 1.0);
            Func<double> noDraw = () => { throw new InvalidOperationException("drew"); };
            var jittery = new RetryPolicy(3, 1, jitterFactor: D("0.5"));
            SameBits("jittered(-1) returns -1 without a draw", jittery.Jittered(-1, noDraw), -1.0);
            SameBits("jittered(-0.0) returns -0.0 without a draw", jittery.Jittered(NegativeZero, noDraw), NegativeZero);
            SameBits("no draw for a policy that gives up", jittery.NextDelay(3, 0, noDraw), null);
            SameBits("no draw for a zero delay", new RetryPolicy(3, 0, jitterFactor: 1).NextDelay(1, 0, noDraw), 0.0);
            SameBits("no draw for a zero factor", new RetryPolicy(3, 1).NextDelay(1, 0, noDraw), 1.0);
            int draws = 0;
            SameBits("+Infinity jittered by factor 1 at r = 0 stays +Infinity",
                     new RetryPolicy(jitterFactor: 1).Jittered(double.PositiveInfinity, () => { draws++; return 0; }), double.PositiveInfinity);
            IsTrue("... and its draw is consumed", draws == 1, draws + " draws");
            SameBits("+Infinity, factor 1, r = 2^-55 too", new RetryPolicy(jitterFactor: 1).JitteredWithDraw(double.PositiveInfinity, FromBits(0x3C80000000000000L)), double.PositiveInfinity);
            Throws<InvalidOperationException>("schedule() refuses more than 2^24 entries", () => new RetryPolicy((1L << 24) + 2).Schedule(), "2^24");
            int walked = 0;
            double last = 0;
            foreach (double x in new RetryPolicy((1L << 24) + 2, 1, 2, 30).Delays())
            {
                walked++;
                last = x;
                if (walked == 100) break;
            }
            SameBits("Delays() walks any length lazily", last, 30.0);

            var capped = new RetryPolicy(long.MaxValue, 1, 2, 30);
            // Creeping past the cap takes 339,000 steps, and then 7 * 10^9 more
            // to overflow: only the cap's early exit answers it at once.
            var creeping = new RetryPolicy(long.MaxValue, 29, D("1.0000001"), 30);
            var clock = Stopwatch.StartNew();
            double? far = capped.NextDelay(1000000000, 0, false);
            double? farther = capped.NextDelay(long.MaxValue - 1, 0, false);
            double? creep = creeping.NextDelay(1000000000000L, 0, false);
            clock.Stop();
            SameBits("attempt 10^9 on a capped policy", far, 30.0);
            SameBits("attempt 2^63 - 2 on a capped policy", farther, 30.0);
            SameBits("attempt 10^12 on a policy creeping past its cap", creep, 30.0);
            IsTrue("... at once (the walk's early exits)", clock.ElapsedMilliseconds < 1000, clock.ElapsedMilliseconds + " ms");
            var flipping = new RetryPolicy(long.MaxValue, 1, NegativeZero);
            SameBits("far under -0.0, odd steps left: -0.0", flipping.NextDelay(long.MaxValue - 1, 0, false), NegativeZero);
            SameBits("far under -0.0, even steps left: 0.0", flipping.NextDelay(long.MaxValue - 2, 0, false), 0.0);
            SameBits("uncapped doubling at 10^9 is +Infinity", new RetryPolicy(long.MaxValue, 1, 2).NextDelay(1000000000, 0, false), double.PositiveInfinity);
            double running;
            IsTrue("Walk stops counting after its limit", new RetryPolicy(long.MaxValue, 1, D("1.000000001")).Walk(1L << 40, 1 << 20, out running) == (1 << 20) + 1, "counted past the limit");

            SameBits("exponential's jitter is the double nearest 0.2", RetryPolicy.Exponential(3, 1).JitterFactor, FromBits(0x3FC999999999999AL));
            IsTrue("policies compare their six values with == (0.0 == -0.0)",
                   new RetryPolicy(2, 0.0).Equals(new RetryPolicy(2, NegativeZero)) && !new RetryPolicy(2, 1).Equals(new RetryPolicy(3, 1)),
                   "Equals");
        }

        // ---- The default source ---------------------------------------------------

        private static void DefaultSourceDraws()
        {
            const int n = 200000;
            bool inRange = true, onGrid = true;
            long lowBits = 0;
            var seen = new HashSet<double>();
            for (int i = 0; i < n; i++)
            {
                double r = DefaultSource.NextDouble();
                if (!(r >= 0 && r < 1)) inRange = false;
                double scaled = r * 9007199254740992.0;  // exact: r is a multiple of 2^-53
                if (scaled != Math.Floor(scaled)) onGrid = false;
                lowBits |= (long)scaled & ((1L << 22) - 1);
                seen.Add(r);
            }
            IsTrue("DefaultSource: every draw in [0, 1)", inRange, "a draw outside");
            IsTrue("DefaultSource: every draw a multiple of 2^-53", onGrid, "off the 2^-53 grid");
            // A 31-bit source (NextDouble on Mono) is k / (2^31 - 1): off the
            // grid; one with 31 bits on the grid would leave the low 22 bits zero.
            IsTrue("DefaultSource: the 22 bits below 2^-31 are all used", lowBits == (1L << 22) - 1, "low bits 0x" + lowBits.ToString("X"));
            IsTrue("DefaultSource: no repeats in 200,000 draws (53 bits: about 2e-6 expected)", seen.Count == n, (n - seen.Count) + " repeats");
            var systemRandom = new Random(1);
            bool systemOnGrid = true;
            for (int i = 0; i < 1000; i++)
            {
                double scaled = systemRandom.NextDouble() * 9007199254740992.0;
                if (scaled != Math.Floor(scaled)) systemOnGrid = false;
            }
            Console.WriteLine("note  System.Random.NextDouble() here is " +
                              (systemOnGrid ? "on the 2^-53 grid" : "off the 2^-53 grid (k / (2^31 - 1): 31 bits, the rule refuses it)"));
        }

        // The generator behind the default source against answers computed
        // apart from this port (python3, from the reference xoshiro256starstar.c):
        // a wrong shift or rotation would still give uniform-looking draws,
        // so only exact outputs can show it. State 1, 2, 3, 4 gives the
        // reference's published 11520, 0, 1509978240, 1215971899390074240;
        // the second state is SplitMix64's first four outputs from seed 0,
        // every bit in play.
        private static void GeneratorKnownAnswers()
        {
            var small = new Xoshiro256StarStar(1, 2, 3, 4);
            ulong[] smallWant = { 11520UL, 0UL, 1509978240UL, 1215971899390074240UL };
            bool smallSame = true;
            string smallGot = "";
            foreach (ulong want in smallWant)
            {
                ulong got = small.NextUInt64();
                smallGot += got + " ";
                if (got != want) smallSame = false;
            }
            IsTrue("xoshiro256** from state 1, 2, 3, 4: the reference's first four outputs", smallSame, "got " + smallGot);

            var outputs = new Xoshiro256StarStar(0xE220A8397B1DCDAFUL, 0x6E789E6AA1B965F4UL, 0x06C45D188009454FUL, 0xF88BB8A8724C81ECUL);
            ulong[] outputWant = { 0x99EC5F36CB75F2B4UL, 0xBF6E1F784956452AUL, 0x1A5F849D4933E6E0UL, 0x6AA594F1262D2D2CUL, 0xBBA5AD4A1F842E59UL };
            bool outputSame = true;
            string outputGot = "";
            foreach (ulong want in outputWant)
            {
                ulong got = outputs.NextUInt64();
                outputGot += "0x" + got.ToString("X16") + " ";
                if (got != want) outputSame = false;
            }
            IsTrue("xoshiro256** from SplitMix64(0)'s four outputs: five outputs", outputSame, "got " + outputGot);

            // The same five as draws: (x >> 11) * 2^-53, the bits python3 gives
            // for (x >> 11) / 2**53.
            var draws = new Xoshiro256StarStar(0xE220A8397B1DCDAFUL, 0x6E789E6AA1B965F4UL, 0x06C45D188009454FUL, 0xF88BB8A8724C81ECUL);
            var got5 = new List<double?>();
            for (int i = 0; i < 5; i++) got5.Add(draws.NextDouble());
            SameBits("xoshiro256** from SplitMix64(0)'s four outputs: five draws, the top 53 bits times 2^-53", got5,
                     new List<double?>
                     {
                         FromBits(0x3FE33D8BE6D96EBEL), FromBits(0x3FE7EDC3EF092AC8L), FromBits(0x3FBA5F849D4933E0L),
                         FromBits(0x3FDAA9653C498B4AL), FromBits(0x3FE774B5A943F085L),
                     });

            bool refused = false;
            try { new Xoshiro256StarStar(0, 0, 0, 0); }
            catch (ArgumentException) { refused = true; }
            IsTrue("xoshiro256**: the all-zero state (0 for ever) is refused", refused, "accepted");
        }

        // The default source drawn from 8 threads at once, released together:
        // no thread fails, every draw is on the 2^-53 grid in [0, 1), and no
        // value comes twice, within a thread (a generator stepped by two threads
        // at once can repeat draws, and a wrecked System.Random sticks at 0) or
        // across threads (one stream repeated).
        // Among 80,000 53-bit draws a repeat has a chance of about 4e-7.
        private static void DefaultSourceThreads()
        {
            const int threads = 8, each = 10000;
            var draws = new double[threads][];
            var failures = new Exception[threads];
            var workers = new Thread[threads];
            using (var started = new CountdownEvent(threads))
            {
                for (int t = 0; t < threads; t++)
                {
                    int index = t;
                    draws[t] = new double[each];
                    workers[t] = new Thread(() =>
                    {
                        try
                        {
                            started.Signal();
                            started.Wait();
                            for (int k = 0; k < each; k++) draws[index][k] = DefaultSource.NextDouble();
                        }
                        catch (Exception e)
                        {
                            failures[index] = e;
                        }
                    });
                    workers[t].Start();
                }
                foreach (Thread worker in workers) worker.Join();
            }
            int failed = 0;
            foreach (Exception e in failures) if (e != null) failed++;
            IsTrue("DefaultSource under 8 threads: no thread fails", failed == 0, failed + " failed");
            bool onGrid = true;
            var seen = new HashSet<double>();
            var firsts = new HashSet<double>();
            foreach (double[] stream in draws)
            {
                firsts.Add(stream[0]);
                foreach (double r in stream)
                {
                    double scaled = r * 9007199254740992.0;
                    if (!(r >= 0 && r < 1) || scaled != Math.Floor(scaled)) onGrid = false;
                    seen.Add(r);
                }
            }
            IsTrue("DefaultSource under 8 threads: every draw a multiple of 2^-53 in [0, 1)", onGrid, "a draw off the grid or outside");
            IsTrue("DefaultSource under 8 threads: each thread its own stream (8 first draws differ)", firsts.Count == threads,
                   firsts.Count + " distinct first draws of " + threads);
            IsTrue("DefaultSource under 8 threads: no value repeated, within or across threads", seen.Count == threads * each,
                   seen.Count + " distinct of " + threads * each);
        }

        // ---- Reading numbers ------------------------------------------------------

        private static void ReadsAs(string text, long bits)
        {
            double x;
            if (!DecimalParser.TryParse(text, 0, text.Length, out x)) Fail("reads " + JsonReader.Clip(text), "beyond binary64");
            else SameBits("reads " + JsonReader.Clip(text), x, FromBits(bits));
        }

        private static void ReadingNumbers()
        {
            ReadsAs("-0.0", long.MinValue);                       // Mono's double.Parse gives +0.0
            ReadsAs("-0e5", long.MinValue);
            ReadsAs("0", 0);
            ReadsAs("-1e-400", long.MinValue);                    // underflow keeps the sign
            ReadsAs("1e-400", 0);
            ReadsAs("4e-106", 0x2A0D5B561574765BL);               // Mono: ...5C
            ReadsAs("37990e-141", 0x239C467A6DB4BD9BL);           // Mono: ...9C
            ReadsAs("28605893203577697e-176", 0x1ED016411B32680FL); // 17 digits; Mono: ...10
            ReadsAs("0.84551240822557006", 0x3FEB0E7009B61CE0L);
            ReadsAs("0.4988301759350254", 0x3FDFECD566F986EDL);
            ReadsAs("1.2000000000000002", 0x3FF3333333333334L);
            ReadsAs("0.30000000000000004", 0x3FD3333333333334L);
            ReadsAs("1.7976931348623157e308", 0x7FEFFFFFFFFFFFFFL);
            ReadsAs("5e-324", 1);
            ReadsAs("2.4703282292062328e-324", 1);                // just above half the least subnormal
            ReadsAs("2.4703282292062327e-324", 0);                // just below
            // Exact midpoints round to even.
            ReadsAs("1.00000000000000011102230246251565404236316680908203125", 0x3FF0000000000000L);
            ReadsAs("1.00000000000000033306690738754696212708950042724609375", 0x3FF0000000000002L);
            ReadsAs("1" + new string('0', 5000) + "e-5000", 0x3FF0000000000000L);
            ReadsAs("0." + new string('0', 400000) + "1e400001", 0x3FF0000000000000L);
            double ignored;
            IsTrue("1e400 is beyond binary64", !DecimalParser.TryParse("1e400", 0, 5, out ignored), "read as a number");
            IsTrue("1.7976931348623159e308 is beyond binary64 (rounds to infinity)",
                   !DecimalParser.TryParse("1.7976931348623159e308", 0, 22, out ignored), "read as a number");
            string nines = new string('9', 309);
            IsTrue("an integer of 309 nines is beyond binary64", !DecimalParser.TryParse(nines, 0, nines.Length, out ignored), "read");

            // Against exact decimal expansions: every double's own expansion
            // reads back to it, and each midpoint to the even neighbour, and a
            // hair either side of a midpoint to that side.
            var random = new Random(20260101);
            var buffer = new byte[8];
            int wrong = 0;
            string example = null;
            for (int i = 0; i < 3000; i++)
            {
                random.NextBytes(buffer);
                long bits = BitConverter.ToInt64(buffer, 0) & long.MaxValue;
                if (i % 3 == 1) bits &= 0x000FFFFFFFFFFFFFL;            // subnormals
                if (i % 3 == 2) bits = (bits & 0x000FFFFFFFFFFFFFL) | ((long)(1023 + random.Next(-70, 70)) << 52);
                if (bits >= 0x7FEFFFFFFFFFFFFFL) continue;
                string self = ExactDecimal(new BigInteger(Mantissa(bits)) * 2, Exponent(bits) - 1);
                BigInteger midNumerator = new BigInteger(Mantissa(bits)) * 2 + 1;  // (m + 1/2) * 2^e
                string mid = ExactDecimal(midNumerator, Exponent(bits) - 1);
                long even = (bits & 1) == 0 ? bits : bits + 1;
                double x;
                if (!DecimalParser.TryParse(self, 0, self.Length, out x) || Bits(x) != bits ||
                    !DecimalParser.TryParse(mid, 0, mid.Length, out x) || Bits(x) != even ||
                    !DecimalParser.TryParse(Above(mid), 0, Above(mid).Length, out x) || Bits(x) != bits + 1 ||
                    !DecimalParser.TryParse(Below(mid), 0, Below(mid).Length, out x) || Bits(x) != bits)
                {
                    wrong++;
                    example = example ?? "0x" + bits.ToString("X16");
                }
            }
            IsTrue("3,000 doubles: exact expansions, midpoints (ties to even) and a hair either side", wrong == 0, wrong + " wrong, e.g. " + example);

            // The integer literal -0 is the integer zero, so +0.0; -0.0 is -0.0.
            SameBits("the integer literal -0 is +0.0", JsonReader.Parse("-0").Number, 0.0);
            SameBits("the literal -0.0 is -0.0", JsonReader.Parse("-0.0").Number, NegativeZero);
            IsTrue("5.0 is not an integer literal", !JsonReader.Parse("5.0").IsIntegerLiteral && !JsonReader.Parse("5e0").IsIntegerLiteral, "it is");
            IsTrue("-9223372036854775808 fits int64, 9223372036854775808 does not",
                   JsonReader.Parse("-9223372036854775808").FitsInt64 && JsonReader.Parse("-9223372036854775808").Int64 == long.MinValue &&
                   !JsonReader.Parse("9223372036854775808").FitsInt64, "int64 range");

            Console.WriteLine("note  Mono's own: double.Parse(\"-0.0\") is " + Show(double.Parse("-0.0", CultureInfo.InvariantCulture)) +
                              ", double.Parse(\"4e-106\") is " + Show(double.Parse("4e-106", CultureInfo.InvariantCulture)) +
                              ", double.Parse(\"1e400\") " + ParseOverflow());
        }

        private static string ParseOverflow()
        {
            try
            {
                return "is " + double.Parse("1e400", CultureInfo.InvariantCulture);
            }
            catch (OverflowException)
            {
                return "throws OverflowException";
            }
        }

        private static long Mantissa(long bits)
        {
            long fraction = bits & 0x000FFFFFFFFFFFFFL;
            return (bits >> 52) == 0 ? fraction : fraction | (1L << 52);
        }

        private static int Exponent(long bits)
        {
            int biased = (int)(bits >> 52);
            return (biased == 0 ? 1 : biased) - 1075;
        }

        // m * 2^e written exactly as a decimal.
        private static string ExactDecimal(BigInteger m, int e)
        {
            if (e >= 0) return (m << e).ToString();
            BigInteger scaled = m * BigInteger.Pow(5, -e);  // m * 2^e = m * 5^-e / 10^-e
            string digits = scaled.ToString().PadLeft(-e + 1, '0');
            return digits.Substring(0, digits.Length + e) + "." + digits.Substring(digits.Length + e);
        }

        private static bool AtLeastPowerOfTen(BigInteger num, BigInteger den, int power)
        {
            return power >= 0 ? num >= den * BigInteger.Pow(10, power) : num * BigInteger.Pow(10, -power) >= den;
        }

        // A decimal a hair above a midpoint (an integer, or a fraction ending in 5).
        private static string Above(string midpoint)
        {
            return midpoint.IndexOf('.') < 0 ? midpoint + ".1" : midpoint + "1";
        }

        // A decimal a hair below a midpoint: an integer less 0.1, or the last
        // digit 5 lowered to 4 and followed by 9s.
        private static string Below(string midpoint)
        {
            if (midpoint.IndexOf('.') < 0) return (BigInteger.Parse(midpoint) - 1).ToString() + ".9";
            return midpoint.Substring(0, midpoint.Length - 1) + (char)(midpoint[midpoint.Length - 1] - 1) + "9999999999";
        }

        // ---- Writing numbers ------------------------------------------------------

        private static void WritingNumbers()
        {
            SameText("-0.0 is written -0.0 (Mono's \"R\" and \"G17\" write 0)", DoubleText.Shortest(NegativeZero), "-0.0");
            SameText("0.0", DoubleText.Shortest(0.0), "0.0");
            SameText("0.84551240822557006 is written shortest (Mono's \"R\": 0.84551240822557, another double)",
                     DoubleText.Shortest(FromBits(0x3FEB0E7009B61CE0L)), "0.8455124082255701");
            // As `retry-policy serve` writes them (std::to_chars, then ".0"),
            // but for one: an integral value in [2^53, 10^22) whose fixed form
            // is chosen, where libstdc++ writes the exact integer
            // (123456789012345683968.0) and this port the shortest digits
            // padded with zeros; both read back to the same bits.
            var table = new[]
            {
                "3FF0000000000000 1.0", "4059000000000000 100.0", "4341C37937E08000 1e+16",
                "4340000000000000 9007199254740992.0", "4415AF1D78B58C40 1e+20", "444B1AE4D6E2EF50 1e+21",
                "4480F0CF064DD592 1e+22", "44B52D02C7E14AF6 1e+23", "441AC53A7E04BCDA 123456789012345680000.0",
                "3E112E0BE826D695 1e-09", "3F1A36E2EB1C432D 1e-04", "3EE4F8B588E368F1 1e-05",
                "3EEF75104D551D69 1.5e-05", "3F50624DD2F1A9FC 0.001", "3FB999999999999A 0.1",
                "3FD3333333333334 0.30000000000000004", "7FEFFFFFFFFFFFFF 1.7976931348623157e+308",
                "0000000000000001 5e-324", "0010000000000000 2.2250738585072014e-308",
                "800FFFFFFFFFFFFF -2.225073858507201e-308", "4058C00000CC02CD 99.00000019",
                "3FDFECD566F986ED 0.4988301759350254", "C0C81CD6C8B43958 -12345.678", "7E37E43C8800759C 1e+300",
                "81A56E1FC2F8F359 -1e-300", "40FE240000000000 123456.0", "430C6BF526340000 1e+15",
                "3F647AE147AE147B 0.0025",
                // 2^-25 is 2.98023223876953125e-08 exactly: 17 digits are a tie, to even.
                "3E60000000000000 2.9802322387695312e-08",
            };
            foreach (string row in table)
            {
                string[] parts = row.Split(' ');
                SameText("writes 0x" + parts[0], DoubleText.Shortest(FromBits(Convert.ToInt64(parts[0], 16))), parts[1]);
            }

            // Every written number reads back (correctly rounded) to its bits,
            // and no number with one digit fewer does: shortest, proved per value.
            var random = new Random(7);
            var buffer = new byte[8];
            int notBack = 0, notShortest = 0;
            string example = null;
            for (int i = 0; i < 1000000; i++)
            {
                random.NextBytes(buffer);
                long bits = BitConverter.ToInt64(buffer, 0);
                if (i % 2 == 1) bits = (bits & unchecked((long)0x800FFFFFFFFFFFFFUL)) | ((long)(1023 + random.Next(-30, 30)) << 52);
                double x = FromBits(bits);
                if (double.IsNaN(x) || double.IsInfinity(x)) continue;
                string text = DoubleText.Shortest(x);
                double back;
                if (!DecimalParser.TryParse(text, 0, text.Length, out back) || Bits(back) != bits)
                {
                    notBack++;
                    example = example ?? text;
                }
                if (i % 50 == 0 && x != 0 && !Shortest(x, text))
                {
                    notShortest++;
                    example = example ?? text;
                }
            }
            IsTrue("1,000,000 doubles written read back to the same bits", notBack == 0, notBack + " did not, e.g. " + example);
            IsTrue("20,000 of them: no decimal with one digit fewer reads back to them", notShortest == 0, notShortest + " were not shortest, e.g. " + example);

            // The invariant culture, whatever the machine's: a German one writes 0,5.
            CultureInfo culture = Thread.CurrentThread.CurrentCulture;
            try
            {
                Thread.CurrentThread.CurrentCulture = new CultureInfo("de-DE");
                SameText("under de-DE the answer still writes 0.5",
                         AnswerTo("{\"id\":1,\"op\":\"schedule\",\"policy\":{\"max_attempts\":3,\"initial_delay\":0.5,\"multiplier\":1.5}}"),
                         "{\"id\":1,\"ok\":true,\"result\":[0.5,0.75]}");
                SameText("under de-DE a message still writes 1.5", Message(() => new RetryPolicy(jitterFactor: D("1.5"))),
                         "RetryPolicy: jitter_factor must be in [0, 1], got 1.5");
            }
            finally
            {
                Thread.CurrentThread.CurrentCulture = culture;
            }
        }

        private static string Message(Action action)
        {
            try
            {
                action();
                return "(no exception)";
            }
            catch (Exception e)
            {
                return e.Message;
            }
        }

        // text (the shortest form of x, not zero) has n significant digits; the
        // two decimals of n - 1 digits either side of x must not read back to x.
        private static bool Shortest(double x, string text)
        {
            string mantissa = text.TrimStart('-');
            int e = mantissa.IndexOf('e');
            if (e >= 0) mantissa = mantissa.Substring(0, e);
            mantissa = mantissa.Replace(".", "").TrimStart('0');
            if (mantissa.EndsWith("0")) mantissa = mantissa.TrimEnd('0');
            int digits = mantissa.Length;
            if (digits <= 1) return true;
            long bits = Bits(Math.Abs(x));
            BigInteger m = Mantissa(bits);
            int exponent2 = Exponent(bits);
            // x = num / den exactly.
            BigInteger num = exponent2 >= 0 ? m << exponent2 : m;
            BigInteger den = exponent2 >= 0 ? BigInteger.One : BigInteger.One << -exponent2;
            // The decimal exponent of x's leading digit, exactly: 10^lead <= x < 10^(lead + 1).
            int lead = (int)Math.Floor(BigInteger.Log10(num) - BigInteger.Log10(den));
            while (AtLeastPowerOfTen(num, den, lead + 1)) lead++;
            while (!AtLeastPowerOfTen(num, den, lead)) lead--;
            int scale = digits - 2 - lead;  // x * 10^scale has digits - 1 digits before its point
            BigInteger scaledNum = scale >= 0 ? num * BigInteger.Pow(10, scale) : num;
            BigInteger scaledDen = scale >= 0 ? den : den * BigInteger.Pow(10, -scale);
            BigInteger floor = BigInteger.Divide(scaledNum, scaledDen);
            foreach (BigInteger candidate in new[] { floor, floor + 1 })
            {
                if (candidate.IsZero) continue;
                string candidateText = candidate.ToString() + "e" + (-scale).ToString(CultureInfo.InvariantCulture);
                double back;
                if (DecimalParser.TryParse(candidateText, 0, candidateText.Length, out back) && back == Math.Abs(x)) return false;
            }
            return true;
        }

        // ---- Lines and the protocol's strictness -----------------------------------

        private static byte[] Ascii(string text)
        {
            return Encoding.ASCII.GetBytes(text);
        }

        private static string AnswerTo(byte[] line)
        {
            var answer = new Answer();
            Protocol.AnswerLine(line, line.Length, answer);
            return answer.ToString();
        }

        private static string AnswerTo(string line)
        {
            return AnswerTo(Encoding.UTF8.GetBytes(line));
        }

        private static void Malformed(string what, byte[] line)
        {
            string answer = AnswerTo(line);
            IsTrue(what + " is malformed (error, id null)", answer.StartsWith("{\"id\":null,\"ok\":false,\"error\":\"line: "), answer);
        }

        private static void Refused(string what, string line)
        {
            string answer = AnswerTo(line);
            IsTrue(what + " is an error", answer.StartsWith("{\"id\":1,\"ok\":false,"), answer);
        }

        private static byte[] Bytes(params object[] parts)
        {
            var all = new List<byte>();
            foreach (object part in parts)
            {
                if (part is string) all.AddRange(Encoding.UTF8.GetBytes((string)part));
                else all.AddRange((byte[])part);
            }
            return all.ToArray();
        }

        private static void LinesAndStrictness()
        {
            // A line ends at LF only: CR is JSON whitespace (StreamReader.ReadLine would split here).
            var reader = new LineReader(new MemoryStream(Ascii("{\"id\":1,\r\"op\":\"schedule\",\"policy\":{}}\r\n\n{\"id\":2}")), Protocol.MaxLineBytes);
            var lines = new List<string>();
            while (reader.Next()) lines.Add(Encoding.ASCII.GetString(reader.Line, 0, reader.Length));
            IsTrue("lines end at LF only; the last needs none", lines.Count == 3 && lines[0].EndsWith("{}}\r") && lines[1] == "" && lines[2] == "{\"id\":2}",
                   lines.Count + " lines");
            SameText("a CR around values is whitespace", AnswerTo(lines[0]), "{\"id\":1,\"ok\":true,\"result\":[]}");
            var big = new byte[(2 << 20) + 40];
            for (int i = 0; i < big.Length; i++) big[i] = (byte)'x';
            big[(2 << 20)] = (byte)'\n';
            Buffer.BlockCopy(Ascii("{\"id\":3}"), 0, big, (2 << 20) + 1, 8);
            reader = new LineReader(new MemoryStream(big, 0, (2 << 20) + 9), Protocol.MaxLineBytes);
            bool first = reader.Next();
            long tooLong = reader.TooLong;
            bool second = reader.Next();
            IsTrue("a 2 MiB line is consumed, counted, not kept; the next line follows",
                   first && tooLong == 2 << 20 && second && reader.TooLong == 0 && Encoding.ASCII.GetString(reader.Line, 0, reader.Length) == "{\"id\":3}" && !reader.Next(),
                   "too long " + tooLong);

            const string valid = "{\"id\":1,\"op\":\"schedule\",\"policy\":{}}";
            Malformed("a NUL after the value", Bytes(valid, new byte[] { 0 }));
            Malformed("a NUL in a string", Bytes("{\"id\":1,\"op\":\"sched", new byte[] { 0 }, "ule\",\"policy\":{}}"));
            Malformed("a NUL between tokens", Bytes("{\"id\":1,", new byte[] { 0 }, "\"op\":\"schedule\",\"policy\":{}}"));
            Malformed("bytes after the value", Bytes(valid, " x"));
            Malformed("a form feed after the value (not JSON whitespace)", Bytes(valid, "\f"));
            Malformed("a byte-order mark", Bytes(new byte[] { 0xEF, 0xBB, 0xBF }, valid));
            Malformed("invalid UTF-8 (0xFF)", Bytes("{\"id\":\"", new byte[] { 0xFF }, "\",\"op\":\"schedule\",\"policy\":{}}"));
            Malformed("an overlong encoding (C0 80)", Bytes("{\"id\":\"", new byte[] { 0xC0, 0x80 }, "\",\"op\":\"schedule\",\"policy\":{}}"));
            Malformed("a surrogate encoded in UTF-8 (ED A0 80)", Bytes("{\"id\":\"", new byte[] { 0xED, 0xA0, 0x80 }, "\",\"op\":\"schedule\",\"policy\":{}}"));
            Malformed("beyond U+10FFFF (F4 90 80 80)", Bytes("{\"id\":\"", new byte[] { 0xF4, 0x90, 0x80, 0x80 }, "\",\"op\":\"schedule\",\"policy\":{}}"));
            Malformed("a truncated sequence (E2 82)", Bytes("{\"id\":\"", new byte[] { 0xE2, 0x82 }, "\",\"op\":\"schedule\",\"policy\":{}}"));
            Malformed("a lone surrogate \\ud800", Ascii("{\"id\":1,\"op\":\"schedule\",\"policy\":{},\"note\":\"\\ud800\"}"));
            Malformed("a lone low surrogate \\udc00", Ascii("{\"id\":\"\\udc00\",\"op\":\"schedule\",\"policy\":{}}"));
            Malformed("a high surrogate before a non-surrogate", Ascii("{\"id\":\"\\ud800\\u0041\",\"op\":\"schedule\",\"policy\":{}}"));
            Malformed("bare NaN", Ascii("{\"id\":1,\"op\":\"jittered\",\"policy\":{},\"delay\":NaN,\"r\":0}"));
            Malformed("bare -Infinity", Ascii("{\"id\":1,\"op\":\"jittered\",\"policy\":{},\"delay\":-Infinity,\"r\":0}"));
            Malformed("1e400", Ascii("{\"id\":1,\"op\":\"jittered\",\"policy\":{},\"delay\":1e400,\"r\":0}"));
            Malformed("33 levels of nesting", Ascii(new string('[', 33) + new string(']', 33)));
            Malformed("an empty line", new byte[0]);
            Malformed("a leading zero", Ascii("{\"id\":01}"));
            SameText("a pair of surrogates and non-ASCII text come back escaped (answers are ASCII)",
                     AnswerTo("{\"id\":\"\ud83d\ude00\\ud83d\\ude00\u00e9\u007f\",\"op\":\"schedule\",\"policy\":{}}"),
                     "{\"id\":\"\\ud83d\\ude00\\ud83d\\ude00\\u00e9\\u007f\",\"ok\":true,\"result\":[]}");
            SameText("32 levels of nesting are fine", AnswerTo("{\"id\":" + new string('[', 31) + new string(']', 31) + ",\"op\":\"schedule\",\"policy\":{}}"),
                     "{\"id\":" + new string('[', 31) + new string(']', 31) + ",\"ok\":true,\"result\":[]}");
            SameText("duplicate keys: the last one counts", AnswerTo("{\"id\":1,\"id\":2,\"op\":\"schedule\",\"policy\":{}}"), "{\"id\":2,\"ok\":true,\"result\":[]}");
            SameText("the integer literal -0 in a number field is +0.0",
                     AnswerTo("{\"id\":1,\"op\":\"jittered\",\"policy\":{},\"delay\":-0,\"r\":0}"), "{\"id\":1,\"ok\":true,\"result\":0.0}");
            SameText("-0.0 in a number field is -0.0",
                     AnswerTo("{\"id\":1,\"op\":\"jittered\",\"policy\":{},\"delay\":-0.0,\"r\":0}"), "{\"id\":1,\"ok\":true,\"result\":-0.0}");
            SameText("an id is echoed as the value sent", AnswerTo("{\"id\":1e5,\"op\":\"schedule\",\"policy\":{}}"), "{\"id\":1e5,\"ok\":true,\"result\":[]}");
            Refused("max_attempts 5.0", "{\"id\":1,\"op\":\"schedule\",\"policy\":{\"max_attempts\":5.0}}");
            Refused("max_attempts 9223372036854775808", "{\"id\":1,\"op\":\"schedule\",\"policy\":{\"max_attempts\":9223372036854775808}}");
            Refused("r = 1.0", "{\"id\":1,\"op\":\"next_delay\",\"policy\":{\"max_attempts\":3},\"attempt\":1,\"r\":1.0}");
            Refused("a misspelt member", "{\"id\":1,\"op\":\"next_delay\",\"policy\":{\"max_attempts\":3},\"attempt\":1,\"messageAge\":5,\"jitter\":false}");
            Refused("a misspelt policy field", "{\"id\":1,\"op\":\"schedule\",\"policy\":{\"max_atempts\":3}}");
            Refused("null where a value is expected", "{\"id\":1,\"op\":\"next_delay\",\"policy\":{\"max_attempts\":3},\"attempt\":1,\"jitter\":null,\"r\":0.5}");
            Refused("the cost limit (attempt 2^20 + 2 on a policy that never settles)",
                    "{\"id\":1,\"op\":\"next_delay\",\"policy\":{\"max_attempts\":9223372036854775807,\"initial_delay\":1e-300,\"multiplier\":1.000000001},\"attempt\":1048578,\"jitter\":false}");
            SameText("attempt 2^20 + 1 is always answered",
                     AnswerTo("{\"id\":1,\"op\":\"next_delay\",\"policy\":{\"max_attempts\":9223372036854775807,\"initial_delay\":1e-300,\"multiplier\":1.000000001},\"attempt\":1048577,\"jitter\":false}"),
                     "{\"id\":1,\"ok\":true,\"result\":1.001049126034349e-300}");
            SameText("the probe line -0.0 answers [-0.0,-0.0]",
                     AnswerTo("{\"id\":1,\"op\":\"schedule\",\"policy\":{\"max_attempts\":3,\"initial_delay\":-0.0}}"), "{\"id\":1,\"ok\":true,\"result\":[-0.0,-0.0]}");
            SameText("replay: the README's example",
                     AnswerTo("{\"id\":2,\"op\":\"replay\",\"policy\":{\"factory\":\"exponential\",\"max_attempts\":5,\"initial_delay\":0.5},\"seed\":42,\"calls\":[[1,0],[2,0],[3,0],[4,0],[5,0]]}"),
                     "{\"id\":2,\"ok\":true,\"result\":[0.4749080237694725,1.1802857225639665,2.1855951534491243,4.157853574715259,null]}");
            string sample = AnswerTo("{\"id\":3,\"op\":\"sample\",\"policy\":{\"jitter_factor\":0.5},\"delay\":8,\"count\":1000}");
            IsTrue("sample answers count draws from the default source", sample.StartsWith("{\"id\":3,\"ok\":true,\"result\":[") && sample.Split(',').Length == 1002, sample.Substring(0, Math.Min(80, sample.Length)));
        }

        // ---- sample's threads ------------------------------------------------------

        // The items of a successful answer's result array, as text ("null" to
        // give up); empty if it is not one.
        private static string[] Items(string answer, string id)
        {
            string head = "{\"id\":" + id + ",\"ok\":true,\"result\":[";
            if (!answer.StartsWith(head, StringComparison.Ordinal) || !answer.EndsWith("]}", StringComparison.Ordinal)) return new string[0];
            return answer.Substring(head.Length, answer.Length - head.Length - 2).Split(',');
        }

        private static bool AllWithin(string[] items, double low, double high)
        {
            foreach (string item in items)
            {
                double d;
                if (!DecimalParser.TryParse(item, 0, item.Length, out d) || !(d >= low && d <= high)) return false;
            }
            return true;
        }

        // T threads draw at once from the default source: count draws in the
        // band, no value twice (so the threads did not draw one stream each,
        // nor get stuck); threads is an integer in [1, 64], a member of
        // sample, and the first call's checks come first.
        private static void SampleThreads()
        {
            const string jittered = "\"policy\":{\"jitter_factor\":0.5},\"delay\":8";
            string[] four = Items(AnswerTo("{\"id\":1,\"op\":\"sample\"," + jittered + ",\"count\":1000,\"threads\":4}"), "1");
            IsTrue("sample, threads 4: count draws, each in [d (1 - f), d (1 + f)]", four.Length == 1000 && AllWithin(four, 4, 12),
                   four.Length + " draws");
            IsTrue("sample, threads 4: no value twice (not one stream per thread, none stuck)",
                   new HashSet<string>(four).Count == 1000, new HashSet<string>(four).Count + " distinct of " + four.Length);
            string[] many = Items(AnswerTo("{\"id\":2,\"op\":\"sample\"," + jittered + ",\"count\":6400,\"threads\":64}"), "2");
            var firsts = new HashSet<string>();
            for (int t = 0; t < 64 && many.Length == 6400; t++) firsts.Add(many[100 * t]);  // the answer is thread by thread
            IsTrue("sample, threads 64: 6400 draws, all distinct, the 64 threads' first draws distinct",
                   many.Length == 6400 && new HashSet<string>(many).Count == 6400 && firsts.Count == 64,
                   many.Length + " draws, " + firsts.Count + " distinct first draws");
            string[] few = Items(AnswerTo("{\"id\":3,\"op\":\"sample\"," + jittered + ",\"count\":3,\"threads\":8}"), "3");
            IsTrue("sample, threads 8 for count 3: 3 draws (threads past the count make none)", few.Length == 3 && AllWithin(few, 4, 12),
                   string.Join(",", few));
            string[] attempts = Items(AnswerTo("{\"id\":4,\"op\":\"sample\",\"policy\":{\"max_attempts\":3,\"initial_delay\":8," +
                                               "\"jitter_factor\":0.5},\"attempt\":1,\"count\":101,\"threads\":4}"), "4");
            IsTrue("sample by attempt, threads 4: 101 draws in the band", attempts.Length == 101 && AllWithin(attempts, 4, 12),
                   attempts.Length + " draws");
            SameText("sample, threads 2, a policy that gives up: nulls",
                     AnswerTo("{\"id\":5,\"op\":\"sample\",\"policy\":{\"max_attempts\":1},\"attempt\":1,\"count\":3,\"threads\":2}"),
                     "{\"id\":5,\"ok\":true,\"result\":[null,null,null]}");
            string one = AnswerTo("{\"id\":6,\"op\":\"sample\"," + jittered + ",\"count\":2,\"threads\":1}");
            IsTrue("sample, threads 1: as without it", Items(one, "6").Length == 2, one);
            string[,] refused =
            {
                { "0", "threads: must be in [1, 64], got 0" },
                { "65", "threads: must be in [1, 64], got 65" },
                { "\"x\"", "threads: must be an integer in [1, 64], written without fraction or exponent, got \\\"x\\\"" },
                { "4.0", "threads: must be an integer in [1, 64]" },
                { "null", "threads: must be an integer in [1, 64]" },
                { "-1", "threads: must be in [1, 64], got -1" },
                { "18446744073709551616", "threads: must be in [1, 64]" },
            };
            for (int i = 0; i < refused.GetLength(0); i++)
            {
                string got = AnswerTo("{\"id\":7,\"op\":\"sample\"," + jittered + ",\"count\":4,\"threads\":" + refused[i, 0] + "}");
                IsTrue("sample, threads " + refused[i, 0] + ": an error naming threads",
                       got.StartsWith("{\"id\":7,\"ok\":false,\"error\":\"" + refused[i, 1], StringComparison.Ordinal), got);
            }
            string misspelt = AnswerTo("{\"id\":8,\"op\":\"sample\"," + jittered + ",\"count\":4,\"thread\":4}");
            IsTrue("a misspelt threads is an error, and the members listed include threads",
                   misspelt.StartsWith("{\"id\":8,\"ok\":false,\"error\":\"\\\"thread\\\": not a member", StringComparison.Ordinal) &&
                   misspelt.Contains("count, threads)"), misspelt);
            string notSchedule = AnswerTo("{\"id\":9,\"op\":\"schedule\",\"policy\":{},\"threads\":4}");
            IsTrue("threads is not a member of other ops",
                   notSchedule.StartsWith("{\"id\":9,\"ok\":false,\"error\":\"\\\"threads\\\"", StringComparison.Ordinal), notSchedule);
            string nan = AnswerTo("{\"id\":10,\"op\":\"sample\",\"policy\":{},\"delay\":\"NaN\",\"count\":4,\"threads\":4}");
            IsTrue("sample, threads 4: a NaN delay is an error (before any thread)",
                   nan.StartsWith("{\"id\":10,\"ok\":false,\"error\":\"delay: ", StringComparison.Ordinal), nan);
            string cost = AnswerTo("{\"id\":11,\"op\":\"sample\",\"policy\":{\"max_attempts\":9223372036854775807,\"initial_delay\":1," +
                                   "\"multiplier\":1.0000000000000002},\"count\":4,\"attempt\":2000000,\"threads\":4}");
            IsTrue("sample, threads 4: the cost limit is an error (before any thread)",
                   cost.StartsWith("{\"id\":11,\"ok\":false,\"error\":\"attempt: ", StringComparison.Ordinal), cost);
        }

        // The port's own next_delay(1) and next_delay(2) on that policy after
        // skip draws of srand(42) are discarded.
        private static List<double?> AfterSkipping(int skip)
        {
            var policy = new RetryPolicy(3, 1, jitterFactor: 1);
            var ruby = new RubyRandom(42);
            for (int k = 0; k < skip; k++) ruby.NextDouble();
            return new List<double?> { policy.NextDelay(1, 0, ruby.NextDouble), policy.NextDelay(2, 0, ruby.NextDouble) };
        }

        private static List<double?> Read(string[] items)
        {
            var values = new List<double?>();
            foreach (string item in items) values.Add(item == "null" ? (double?)null : D(item));
            return values;
        }

        // replay's skip: draws of srand(seed) discarded before the first call,
        // an integer in [0, 2^16], 0 when absent, a member of replay only.
        private static void ReplaySkip()
        {
            const string head = "{\"id\":1,\"op\":\"replay\",\"policy\":{\"max_attempts\":3,\"initial_delay\":1,\"jitter_factor\":1}," +
                                "\"seed\":42,";
            const string calls = "\"calls\":[[1,0],[2,0]]}";
            SameBits("replay without skip: from the first draw", Read(Items(AnswerTo(head + calls), "1")), AfterSkipping(0));
            SameBits("replay, skip 0: as without it", Read(Items(AnswerTo(head + "\"skip\":0," + calls), "1")), AfterSkipping(0));
            SameBits("replay, skip 312: from the 313th draw, past the state's first refill",
                     Read(Items(AnswerTo(head + "\"skip\":312," + calls), "1")), AfterSkipping(312));
            // retry-policy serve's answer to the same request with one call.
            SameText("replay, skip 312: the core's answer", AnswerTo(head + "\"skip\":312,\"calls\":[[1,0]]}"),
                     "{\"id\":1,\"ok\":true,\"result\":[0.05070148683091502]}");
            SameBits("replay, skip 65536: the most", Read(Items(AnswerTo(head + "\"skip\":65536," + calls), "1")), AfterSkipping(65536));
            foreach (string skip in new[] { "65537", "-1", "2.0", "\"0\"", "null", "true", "1e2" })
            {
                string got = AnswerTo(head + "\"skip\":" + skip + "," + calls);
                IsTrue("replay, skip " + skip + ": an error naming skip",
                       got.StartsWith("{\"id\":1,\"ok\":false,\"error\":\"skip: ", StringComparison.Ordinal), got);
            }
            string notSchedule = AnswerTo("{\"id\":2,\"op\":\"schedule\",\"policy\":{},\"skip\":0}");
            IsTrue("skip is not a member of other ops",
                   notSchedule.StartsWith("{\"id\":2,\"ok\":false,\"error\":\"\\\"skip\\\"", StringComparison.Ordinal), notSchedule);
        }

        // A fleet: four adapter processes started at once must not draw the
        // same: each seeds its streams from the OS. Their first draws, and
        // their first draws with threads 4, all differ. The adapter is the
        // assembly this test was built against, run by this runtime (mono,
        // or directly on .NET Framework).
        private static void Fleet()
        {
            string adapter = typeof(Protocol).Assembly.Location;
            bool onMono = Type.GetType("Mono.Runtime") != null;
            string requests = "{\"id\":1,\"op\":\"sample\",\"policy\":{\"jitter_factor\":1},\"delay\":1,\"count\":8}\n" +
                              "{\"id\":2,\"op\":\"sample\",\"policy\":{\"jitter_factor\":1},\"delay\":1,\"count\":8,\"threads\":4}\n";
            var processes = new List<Process>();
            for (int p = 0; p < 4; p++)
            {
                var start = new ProcessStartInfo
                {
                    FileName = onMono ? Process.GetCurrentProcess().MainModule.FileName : adapter,
                    Arguments = onMono ? "\"" + adapter + "\"" : "",
                    UseShellExecute = false,
                    RedirectStandardInput = true,
                    RedirectStandardOutput = true,
                };
                processes.Add(Process.Start(start));
            }
            var firsts = new HashSet<string>();
            var threadedFirsts = new HashSet<string>();
            bool answered = true;
            foreach (Process process in processes)
            {
                process.StandardInput.Write(requests);
                process.StandardInput.Close();
                string[] single = Items(process.StandardOutput.ReadLine() ?? "", "1");
                string[] threaded = Items(process.StandardOutput.ReadLine() ?? "", "2");
                answered &= single.Length == 8 && threaded.Length == 8;
                if (answered)
                {
                    firsts.Add(single[0]);
                    for (int t = 0; t < 4; t++) threadedFirsts.Add(threaded[2 * t]);
                }
                answered &= process.WaitForExit(30000) && process.ExitCode == 0;
            }
            IsTrue("four adapter processes started at once: their first draws differ", answered && firsts.Count == 4,
                   string.Join(", ", firsts));
            IsTrue("four adapter processes, threads 4: the 16 threads' first draws differ", answered && threadedFirsts.Count == 16,
                   threadedFirsts.Count + " distinct of 16");
        }

        // ---- The protocol's table ----------------------------------------------------

        // The adapter's limits, ops and members against the protocol's table
        // (conformance/protocol/protocol.json, what `retry-policy protocol`
        // prints), read with the adapter's own JsonReader: a limit or member
        // changed there and not here fails now, not at the border case a run
        // of check may or may not send.
        private static void ProtocolTable(string path)
        {
            if (path == null)
            {
                Console.WriteLine("note  no protocol table given: the limits, ops and members were not held to it");
                return;
            }
            JsonObject table = JsonReader.Parse(File.ReadAllText(path)).Members;

            // The limits: the Max<Limit> (or SeedMax) constants of the types that hold them, by name.
            var ours = new Dictionary<string, long>(StringComparer.Ordinal);
            foreach (Type holder in new[] { typeof(Protocol), typeof(JsonReader) })
            {
                foreach (var field in holder.GetFields(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Static))
                {
                    if (field.IsLiteral && (field.Name.StartsWith("Max", StringComparison.Ordinal) || field.Name == "SeedMax"))
                    {
                        ours[field.Name] = Convert.ToInt64(field.GetRawConstantValue(), CultureInfo.InvariantCulture);
                    }
                }
            }
            JsonObject limits = table.Get("limits").Members;
            var named = new HashSet<string>(StringComparer.Ordinal);
            foreach (string name in limits.Keys)
            {
                string constant = name == "max_seed" ? "SeedMax" : Pascal(name);
                named.Add(constant);
                long want = limits.Get(name).Members.Get("value").Int64;
                long got;
                bool declared = ours.TryGetValue(constant, out got);
                IsTrue("limit " + name + " is " + want, declared && got == want,
                       declared ? "the adapter's " + constant + " is " + got : "the adapter has no " + constant);
            }
            var extra = new List<string>();
            foreach (string constant in ours.Keys) if (!named.Contains(constant)) extra.Add(constant);
            IsTrue("the adapter has no limit the table lacks", extra.Count == 0, "the adapter's " + string.Join(", ", extra));

            // The ops: Protocol.Ops is a Dictionary, whose order is not promised;
            // the order the adapter shows is its error's list of ops.
            var order = new List<string>();
            foreach (JsonValue row in table.Get("ops").Items) order.Add(row.Members.Get("name").Text);
            var theirs = new HashSet<string>(order, StringComparer.Ordinal);
            IsTrue("the ops are the table's", theirs.SetEquals(Protocol.Ops.Keys),
                   "the adapter's " + string.Join(", ", Protocol.Ops.Keys) + "; the table's " + string.Join(", ", order));
            var listed = new StringBuilder();
            for (int k = 0; k < order.Count; k++)
            {
                listed.Append(k == 0 ? "" : k == order.Count - 1 ? " or " : ", ").Append('"').Append(order[k]).Append('"');
            }
            string error = JsonReader.Parse(AnswerTo("{\"op\":\"no_such_op\",\"policy\":{}}")).Members.Get("error").Text;
            string wantError = "op: must be " + listed + ", got \"no_such_op\"";
            IsTrue("an unknown op's error lists the table's ops in its order", error == wantError,
                   "the adapter's " + error + "; want " + wantError);
            foreach (JsonValue row in table.Get("ops").Items)
            {
                string name = row.Members.Get("name").Text;
                var want = new List<string>();
                foreach (JsonValue member in row.Members.Get("members").Items) want.Add(member.Members.Get("name").Text);
                Protocol.Op op;
                bool answered = Protocol.Ops.TryGetValue(name, out op);
                IsTrue("op " + name + "'s members are " + string.Join(", ", want),
                       answered && string.Join(",", op.Members) == string.Join(",", want),
                       answered ? "the adapter's " + string.Join(", ", op.Members) : "the adapter has no op " + name);
            }
            var vectorLine = new List<string>();
            foreach (JsonValue member in table.Get("vector_line_members").Items) vectorLine.Add(member.Text);
            IsTrue("the vector line members are " + string.Join(", ", vectorLine),
                   string.Join(",", Protocol.VectorLineMembers) == string.Join(",", vectorLine),
                   "the adapter's " + string.Join(", ", Protocol.VectorLineMembers));
        }

        // max_line_bytes: MaxLineBytes.
        private static string Pascal(string name)
        {
            var text = new StringBuilder();
            foreach (string word in name.Split('_')) text.Append(char.ToUpperInvariant(word[0])).Append(word.Substring(1));
            return text.ToString();
        }

        // ---- The vector files -----------------------------------------------------

        private static void Vectors(string directory)
        {
            if (directory == null)
            {
                Console.WriteLine("note  no vectors directory given: the vector files' numbers were not read");
                return;
            }
            int numbers = 0, wrong = 0, lines = 0;
            string example = null;
            foreach (string file in Directory.GetFiles(directory, "*.jsonl"))
            {
                foreach (string line in File.ReadAllLines(file))
                {
                    lines++;
                    JsonValue value = JsonReader.Parse(line);
                    Walk(value, v =>
                    {
                        if (v.Kind != JsonKind.Number) return;
                        numbers++;
                        string text = DoubleText.Shortest(v.Number);
                        double back;
                        if (!DecimalParser.TryParse(text, 0, text.Length, out back) || Bits(back) != Bits(v.Number))
                        {
                            wrong++;
                            example = example ?? v.Text;
                        }
                    });
                }
            }
            IsTrue("the vector files' " + numbers + " numbers (" + lines + " lines) written and read back", lines > 0 && wrong == 0, wrong + " wrong, e.g. " + example);
        }

        private static void Walk(JsonValue v, Action<JsonValue> visit)
        {
            visit(v);
            if (v.Kind == JsonKind.Array) foreach (JsonValue item in v.Items) Walk(item, visit);
            if (v.Kind == JsonKind.Object) foreach (string key in v.Members.Keys) Walk(v.Members.Get(key), visit);
        }

        public static int Main(string[] args)
        {
            var clock = Stopwatch.StartNew();
            WorkedExamples();
            Decisions();
            GeneratorKnownAnswers();
            DefaultSourceDraws();
            DefaultSourceThreads();
            ReadingNumbers();
            WritingNumbers();
            LinesAndStrictness();
            SampleThreads();
            ReplaySkip();
            Fleet();
            Vectors(args.Length > 0 ? args[0] : null);
            ProtocolTable(args.Length > 1 ? args[1] : null);
            Console.WriteLine((failed == 0 ? "PASS" : "FAIL") + ": " + passed + " passed, " + failed + " failed (" +
                              clock.ElapsedMilliseconds + " ms)");
            return failed == 0 ? 0 : 1;
        }
    }
}
