package com.acemq.amqp.adapter;

import com.acemq.amqp.RetryPolicy;
import com.acemq.amqp.RubyRandom;
import com.acemq.amqp.Tally;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The adapter's wire, without JUnit: the shortest-number writer against an
 * exact BigDecimal search, the strict JSON reader on each malformation the
 * protocol names, the line reader, and whole answers. Prints each check,
 * exits 1 if any fails.
 *
 * <pre>
 * java -cp /tmp/java-build com.acemq.amqp.adapter.WireTest [random doubles, default 200000]
 * </pre>
 */
public final class WireTest {
    private static final Tally tally = new Tally();

    private WireTest() {
    }

    private static void check(String name, boolean ok, String detail) {
        tally.record(name, ok, detail);
    }

    private static String write(double x) {
        return new AsciiOut().number(x).toString();
    }

    // ---- Numbers out ----------------------------------------------------------

    private static void logarithms() {
        boolean ok = true;
        String first = "";
        for (int e = -1200; e <= 1200 && ok; e++) {
            // 10^k <= 2^e < 10^(k+1), compared exactly as num/den fractions.
            int k = ShortestDecimal.flog10pow2(e);
            ok = between(pow(2, e), pow(10, k), pow(10, k + 1));
            int k3 = ShortestDecimal.flog10threeQuartersPow2(e);
            ok &= between(pow(2, e - 2).multiply(BigDecimal.valueOf(3)), pow(10, k3), pow(10, k3 + 1));
            if (!ok) {
                first = "e = " + e;
            }
        }
        for (int e = -400; e <= 400 && ok; e++) {
            int k = ShortestDecimal.flog2pow10(e);
            ok = between(pow(10, e), pow(2, k), pow(2, k + 1));
            if (!ok) {
                first = "10^" + e;
            }
        }
        check("floor(log10 2^e), floor(log10 3/4 2^e), floor(log2 10^e) exact over the range used", ok, first);
    }

    private static BigDecimal pow(int base, int e) {
        return e >= 0 ? new BigDecimal(BigInteger.valueOf(base).pow(e))
                : BigDecimal.ONE.divide(new BigDecimal(BigInteger.valueOf(base).pow(-e)));
    }

    private static boolean between(BigDecimal x, BigDecimal low, BigDecimal high) {
        return low.compareTo(x) <= 0 && x.compareTo(high) < 0;
    }

    /** The digits of a wire number's text, without sign, point, exponent or leading zeros. */
    private static String digitsOf(String text) {
        String mantissa = text.replaceFirst("[eE].*", "").replace("-", "").replace(".", "");
        mantissa = mantissa.replaceFirst("^0+", "");
        return mantissa.replaceFirst("0+$", "");
    }

    /**
     * x's text reads back to x; no decimal with fewer significant digits
     * does; and of those with as many, it is the closest when the closest
     * reads back. Returns why not, or null.
     */
    private static String shortestProblem(double x) {
        String text = write(x);
        if (Double.doubleToRawLongBits(Double.parseDouble(text)) != Double.doubleToRawLongBits(x)) {
            return text + " does not read back";
        }
        BigDecimal exact = new BigDecimal(Math.abs(x));
        int n = digitsOf(text).length();
        if (n > 1) {
            for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
                BigDecimal shorter = exact.round(new MathContext(n - 1, mode));
                if (shorter.doubleValue() == Math.abs(x)) {
                    return text + " is not shortest: " + shorter + " reads back";
                }
            }
        }
        BigDecimal closest = exact.round(new MathContext(n, RoundingMode.HALF_EVEN));
        if (closest.doubleValue() == Math.abs(x)
                && !digitsOf(closest.toString()).equals(digitsOf(text))) {
            return text + " is not the closest of " + n + " digits: " + closest;
        }
        return null;
    }

    private static void shortestNumbers(int randomCount) {
        List<Double> values = new ArrayList<>(List.of(Double.MIN_VALUE, 2 * Double.MIN_VALUE, 3 * Double.MIN_VALUE,
                Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL), Double.MAX_VALUE, 1.0, 0.1, 0.3, 2.0 / 3,
                1e23, 9007199254740993.0, 2.82879384806159E17, 1.0E-5, 5e-324, 1.2000000000000002,
                0.4988301759350254, 0.37475, 123456789012345680.0, 1e16, 1e15, 1e-4, 1e-5));
        for (long t = 1; t <= 20_000; t++) {
            values.add(Double.longBitsToDouble(t)); // the least subnormals, every one
        }
        for (int e = -1074; e <= 1023; e++) {
            values.add(Math.scalb(1.0, e)); // powers of two: the irregular spacing below them
            values.add(Math.nextUp(Math.scalb(1.0, e)));
            values.add(Math.nextDown(Math.scalb(1.0, e)));
        }
        for (int e = -323; e <= 308; e++) {
            values.add(Double.parseDouble("1e" + e));
            values.add(Math.nextUp(Double.parseDouble("1e" + e)));
        }
        SplittableRandom random = new SplittableRandom(20240611L);
        for (int i = 0; i < randomCount; i++) {
            double x = Double.longBitsToDouble(random.nextLong());
            if (Double.isFinite(x)) {
                values.add(x);
            }
            values.add(random.nextDouble() * 64); // delays of a usual size
        }
        int problems = 0;
        int jdkLonger = 0;
        String firstProblem = "";
        String jdkExample = "";
        for (double x : values) {
            if (x == 0) {
                continue;
            }
            String problem = shortestProblem(x);
            if (problem != null) {
                if (problems++ == 0) {
                    firstProblem = problem;
                }
            }
            String jdk = Double.toString(Math.abs(x));
            if (digitsOf(jdk).length() > digitsOf(write(Math.abs(x))).length()) {
                if (jdkLonger++ < 3) {
                    jdkExample += (jdkExample.isEmpty() ? "" : "; ") + jdk + " is " + write(Math.abs(x));
                }
            }
        }
        check("every number reads back, shortest, closest (" + values.size() + " doubles)", problems == 0,
                problems == 0 ? "" : problems + " problems, first: " + firstProblem);
        System.out.println("      (JDK 17's Double.toString was longer on " + jdkLonger + " of them, e.g. "
                + jdkExample + ")");
    }

    private static void numberStyle() {
        Object[][] cases = {
                {1.0, "1.0"}, {-0.0, "-0.0"}, {0.0, "0.0"}, {0.5, "0.5"}, {100.0, "100.0"},
                {1e-4, "0.0001"}, {1e-5, "1e-05"}, {1.5e-5, "1.5e-05"}, {1e15, "1000000000000000.0"},
                {1e16, "1e+16"}, {123456789012345680.0, "1.2345678901234568e+17"},
                {Double.MAX_VALUE, "1.7976931348623157e+308"}, {Double.MIN_VALUE, "5e-324"},
                {Double.POSITIVE_INFINITY, "\"Infinity\""}, {Double.NEGATIVE_INFINITY, "\"-Infinity\""},
                {Double.NaN, "\"NaN\""}, {1.2000000000000002, "1.2000000000000002"}, {-2.5e-7, "-2.5e-07"},
                {8.98846567431158e307, "8.98846567431158e+307"}, {2e-320, "2e-320"}, {1e23, "1e+23"},
                {2.82879384806159E17, "2.82879384806159e+17"},
        };
        for (Object[] c : cases) {
            String got = write((Double) c[0]);
            check("writes " + c[1], got.equals(c[1]), got);
        }
    }

    // ---- JSON in --------------------------------------------------------------

    private static Object parse(byte[] line) throws ProtocolError {
        return Json.parse(line, line.length, Json.strictUtf8(), Adapter.MAX_DEPTH);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    private static void malformed(String name, byte[] line) {
        try {
            Object value = parse(line);
            check("malformed: " + name, false, "read as " + value);
        } catch (ProtocolError e) {
            check("malformed: " + name, e.malformed(), e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            check("malformed: " + name, false, e.toString());
        }
    }

    private static Object read(String name, byte[] line) {
        try {
            Object value = parse(line);
            check("reads: " + name, true, "");
            return value;
        } catch (ProtocolError e) {
            check("reads: " + name, false, e.getMessage());
            return null;
        }
    }

    private static double numberIn(String literal) {
        try {
            Object v = parse(bytes("{\"x\":" + literal + "}"));
            return ((Json.Num) ((Map<?, ?>) v).get("x")).value();
        } catch (ProtocolError e) {
            return Double.NaN;
        }
    }

    private static boolean integerIn(String literal) {
        try {
            Object v = parse(bytes("{\"x\":" + literal + "}"));
            return ((Json.Num) ((Map<?, ?>) v).get("x")).integer();
        } catch (ProtocolError e) {
            return false;
        }
    }

    private static void sameBits(String name, double got, double want) {
        check(name, Double.doubleToRawLongBits(got) == Double.doubleToRawLongBits(want), got + "");
    }

    private static void json() {
        String valid = "{\"id\":1,\"op\":\"schedule\",\"policy\":{}}";
        malformed("empty", bytes(""));
        malformed("blank", bytes(" \t \r"));
        malformed("two values", bytes(valid + valid));
        malformed("text after the value", bytes(valid + " x"));
        malformed("a NUL byte after the value", concat(bytes(valid), new byte[] {0}));
        malformed("a NUL byte before the value", concat(new byte[] {0}, bytes(valid)));
        malformed("a NUL byte between tokens", bytes("{\"id\":1,\u0000\"op\":\"schedule\",\"policy\":{}}"));
        malformed("a NUL byte in a string", bytes("{\"id\":1,\"op\":\"sched\u0000ule\",\"policy\":{}}"));
        malformed("form feed is not JSON whitespace", bytes(valid + "\f"));
        malformed("a byte-order mark", concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, bytes(valid)));
        malformed("invalid UTF-8 (FF FE)", concat(bytes("{\"n\":\""), new byte[] {(byte) 0xFF, (byte) 0xFE}, bytes("\"}")));
        malformed("overlong UTF-8 (C0 80)", concat(bytes("{\"n\":\""), new byte[] {(byte) 0xC0, (byte) 0x80}, bytes("\"}")));
        malformed("a UTF-8 encoded surrogate (ED A0 80)",
                concat(bytes("{\"n\":\""), new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, bytes("\"}")));
        malformed("beyond U+10FFFF (F4 90 80 80)",
                concat(bytes("{\"n\":\""), new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, bytes("\"}")));
        malformed("truncated UTF-8 (E2 82)", concat(bytes("{\"n\":\""), new byte[] {(byte) 0xE2, (byte) 0x82}, bytes("\"}")));
        malformed("a lone high surrogate", bytes("{\"n\":\"\\ud800\"}"));
        malformed("a lone low surrogate", bytes("{\"n\":\"\\udc00\"}"));
        malformed("a high surrogate before a non-surrogate", bytes("{\"n\":\"\\ud800\\u0041\"}"));
        malformed("a lone surrogate in a key", bytes("{\"\\ud800\":1}"));
        malformed("bare NaN", bytes("{\"x\":NaN}"));
        malformed("bare Infinity", bytes("{\"x\":Infinity}"));
        malformed("bare -Infinity", bytes("{\"x\":-Infinity}"));
        malformed("1e400", bytes("{\"x\":1e400}"));
        malformed("-1e400", bytes("{\"x\":-1e400}"));
        malformed("an integer of 309 nines", bytes("{\"x\":" + "9".repeat(309) + "}"));
        malformed("1e99999999999999999999", bytes("{\"x\":1e99999999999999999999}"));
        malformed("the midpoint above DBL_MAX (rounds to Infinity)",
                bytes("{\"x\":179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792}"));
        malformed("a number inside an id", bytes("{\"id\":[1e400],\"op\":\"schedule\",\"policy\":{}}"));
        malformed("an unescaped tab in a string", bytes("{\"n\":\"a\tb\"}"));
        malformed("an unescaped CR in a string", bytes("{\"n\":\"a\rb\"}"));
        malformed("an invalid escape", bytes("{\"n\":\"\\x\"}"));
        malformed("a short \\u escape", bytes("{\"n\":\"\\u12\"}"));
        malformed("a non-hex \\u escape", bytes("{\"n\":\"\\u00g0\"}"));
        malformed("a leading zero", bytes("{\"x\":01}"));
        malformed("a leading plus", bytes("{\"x\":+1}"));
        malformed("a bare point", bytes("{\"x\":.5}"));
        malformed("a trailing point", bytes("{\"x\":1.}"));
        malformed("an empty exponent", bytes("{\"x\":1e}"));
        malformed("a lone minus", bytes("{\"x\":-}"));
        malformed("a trailing comma in an object", bytes("{\"x\":1,}"));
        malformed("a trailing comma in an array", bytes("{\"x\":[1,]}"));
        malformed("a single-quoted string", bytes("{'x':1}"));
        malformed("TRUE", bytes("{\"x\":TRUE}"));
        malformed("truncated", bytes("{\"x\":[1,2"));
        malformed("nested 33 deep", bytes("{\"x\":" + "[".repeat(32) + "]".repeat(32) + "}"));
        malformed("nested 200,000 deep", bytes("[".repeat(200_000) + "]".repeat(200_000)));
        malformed("200,000 unclosed", bytes("{\"a\":".repeat(100_000)));

        read("nested 32 deep", bytes("{\"x\":" + "[".repeat(31) + "]".repeat(31) + "}"));
        read("CR, tab and space are JSON whitespace", bytes("\t{ \"x\" :\r1 }\r"));
        read("a raw DEL and non-ASCII text", bytes("{\"n\":\"\u007f\u00e9\ud83d\ude00\"}"));
        read("escapes, a surrogate pair among them", bytes("{\"n\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"}"));
        read("U+FFFE, a noncharacter, is valid UTF-8", concat(bytes("{\"n\":\""),
                new byte[] {(byte) 0xEF, (byte) 0xBF, (byte) 0xBE}, bytes("\"}")));
        Object duplicate = read("duplicate keys", bytes("{\"x\":1,\"x\":2}"));
        check("the last duplicate key counts", duplicate instanceof Map<?, ?> m
                && ((Json.Num) m.get("x")).text().equals("2"), String.valueOf(duplicate));

        sameBits("the integer literal -0 reads as +0.0", numberIn("-0"), 0.0);
        sameBits("-0.0 reads as -0.0", numberIn("-0.0"), -0.0);
        sameBits("-0e0 reads as -0.0", numberIn("-0e0"), -0.0);
        sameBits("1e-400 underflows to 0", numberIn("1e-400"), 0.0);
        sameBits("-1e-400 underflows to -0.0", numberIn("-1e-400"), -0.0);
        sameBits("DBL_MAX, written out", numberIn(new BigDecimal(Double.MAX_VALUE).toBigInteger().toString()),
                Double.MAX_VALUE);
        sameBits("an integer past int64 as a number", numberIn("18446744073709551617"), 18446744073709551616.0);
        sameBits("a halfway case with a sticky tail rounds up",
                numberIn("9007199254740993.00000000000000000000000000000000000000001"), 9007199254740994.0);
        sameBits("the halfway case itself ties to even", numberIn("9007199254740993"), 9007199254740992.0);
        sameBits("the smallest subnormal", numberIn("4.9406564584124654e-324"), Double.MIN_VALUE);
        sameBits("below half the smallest subnormal is 0", numberIn("2.4703282292062327e-324"), 0.0);
        sameBits("just above half of it is the smallest subnormal", numberIn("2.4703282292062328e-324"), Double.MIN_VALUE);
        check("5 is an integer", integerIn("5"), "");
        check("5.0 is not an integer", !integerIn("5.0"), "");
        check("5e0 is not an integer", !integerIn("5e0"), "");
        check("-0 is an integer", integerIn("-0"), "");
    }

    // ---- Lines ----------------------------------------------------------------

    private static void lines() throws IOException {
        byte[] input = concat(bytes("a\r\nb\rc\n\n"), new byte[Adapter.MAX_LINE_BYTES + 1], bytes("\n"),
                new byte[Adapter.MAX_LINE_BYTES], bytes("\nlast"));
        LineReader reader = new LineReader(new ByteArrayInputStream(input), Adapter.MAX_LINE_BYTES);
        List<String> got = new ArrayList<>();
        while (reader.next()) {
            got.add(reader.tooLong() ? "too long: " + reader.length()
                    : reader.length() > 100 ? "kept: " + reader.length()
                    : new String(reader.bytes(), 0, reader.length(), StandardCharsets.UTF_8));
        }
        List<String> want = List.of("a\r", "b\rc", "", "too long: " + (Adapter.MAX_LINE_BYTES + 1),
                "kept: " + Adapter.MAX_LINE_BYTES, "last");
        check("lines end at LF only; CR stays; a long line is counted, not kept; the last needs no LF",
                got.equals(want), got.toString().replace("\r", "\\r"));
        LineReader none = new LineReader(new ByteArrayInputStream(bytes("x\n")), Adapter.MAX_LINE_BYTES);
        check("no request after a final LF", none.next() && !none.next(), "");
    }

    // ---- Whole answers --------------------------------------------------------

    private static final Adapter ADAPTER = new Adapter();

    /** The adapter's answer to one line, or "(hung)" after 10 s: a missing cost limit must fail, not hang. */
    private static String answer(String line) {
        byte[] b = bytes(line);
        String[] result = {"(hung)"};
        Thread worker = new Thread(() -> {
            AsciiOut out = new AsciiOut();
            ADAPTER.answer(b, b.length, out);
            result[0] = out.toString();
        });
        worker.setDaemon(true); // a hung walk does not keep the JVM alive
        worker.start();
        try {
            worker.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return worker.isAlive() ? "(hung)" : result[0]; // join made the worker's write visible
    }

    private static void answers() {
        String[][] cases = {
                {"{\"id\":1,\"op\":\"schedule\",\"policy\":{\"factory\":\"exponential\",\"max_attempts\":5,\"initial_delay\":0.5,\"max_delay\":3}}",
                        "{\"id\":1,\"ok\":true,\"result\":[0.5,1.0,2.0,3.0]}"},
                {"{\"id\":\"\u00e9\ud83d\ude00\",\"op\":\"schedule\",\"policy\":{\"max_attempts\":3,\"initial_delay\":-0}}",
                        "{\"id\":\"\\u00e9\\ud83d\\ude00\",\"ok\":true,\"result\":[0.0,0.0]}"},
                {"{\"id\":1e5,\"op\":\"schedule\",\"policy\":{\"max_attempts\":2,\"initial_delay\":1},\"expect\":[1.0]}",
                        "{\"id\":1e5,\"ok\":true,\"result\":[1.0]}"},
                {"{\"id\":4,\"op\":\"schedule\",\"policy\":{\"max_attempts\":6,\"initial_delay\":7,\"multiplier\":-0.0}}",
                        "{\"id\":4,\"ok\":true,\"result\":[7.0,-0.0,0.0,-0.0,0.0]}"},
                {"{\"id\":5,\"op\":\"jittered\",\"policy\":{\"jitter_factor\":1},\"delay\":\"Infinity\",\"r\":0}",
                        "{\"id\":5,\"ok\":true,\"result\":\"Infinity\"}"},
                {"{\"id\":6,\"op\":\"next_delay\",\"policy\":{\"max_attempts\":9223372036854775807,\"initial_delay\":1,\"max_delay\":30},\"attempt\":1000000000,\"jitter\":false}",
                        "{\"id\":6,\"ok\":true,\"result\":30.0}"},
                {"{\"id\":2,\"op\":\"replay\",\"policy\":{\"factory\":\"exponential\",\"max_attempts\":5,\"initial_delay\":0.5},\"seed\":42,\"calls\":[[1,0],[2,0],[3,0],[4,0],[5,0]]}",
                        "{\"id\":2,\"ok\":true,\"result\":[0.4749080237694725,1.1802857225639665,2.1855951534491243,4.157853574715259,null]}"},
                {"{\"id\":9,\"op\":\"sample\",\"policy\":{\"max_attempts\":1},\"attempt\":1,\"count\":3}",
                        "{\"id\":9,\"ok\":true,\"result\":[null,null,null]}"},
        };
        for (String[] c : cases) {
            String got = answer(c[0]);
            check("answers " + c[0].substring(0, Math.min(60, c[0].length())), got.equals(c[1]), got);
        }
        String[][] errors = {
                {"{\"id\":7,\"op\":\"schedule\",\"policy\":{\"max_attempts\":2.5}}", "7"},
                {"{\"id\":8,\"op\":\"next_delay\",\"policy\":{\"max_attempts\":3},\"attempt\":1}", "8"},
                {"{\"id\":9,\"op\":\"next_delay\",\"policy\":{\"max_attempts\":3},\"attempt\":1,\"messageAge\":5,\"jitter\":false}", "9"},
                {"{\"id\":10,\"op\":\"sample\",\"policy\":{},\"count\":65537,\"delay\":1}", "10"},
                {"{\"id\":11,\"op\":\"sample\",\"policy\":{},\"count\":1,\"delay\":1,\"attempt\":1}", "11"},
                {"{\"id\":12,\"op\":\"sample\",\"policy\":{},\"count\":1,\"delay\":\"NaN\"}", "12"},
                {"{\"id\":13,\"op\":\"next_delay\",\"policy\":{\"max_attempts\":9223372036854775807,\"initial_delay\":1,\"multiplier\":1.0000000000000002},\"attempt\":9223372036854775806,\"jitter\":false}", "13"},
                {"{\"id\":14,\"op\":\"schedule\",\"policy\":{\"max_attempts\":65538}}", "14"},
                {"{\"id\":15,\"op\":\"sample\",\"policy\":{\"max_attempts\":9223372036854775807,\"initial_delay\":1,\"multiplier\":1.0000000000000002},\"count\":1,\"attempt\":2000000}", "15"},
                {"{\"id\":1,\"op\":\"jittered\",\"policy\":{},\"delay\":1e400,\"r\":0}", "null"},
                {"[1,2,3]", "null"},
        };
        for (String[] c : errors) {
            String got = answer(c[0]);
            check("an error, id " + c[1] + ": " + c[0].substring(0, Math.min(60, c[0].length())),
                    got.startsWith("{\"id\":" + c[1] + ",\"ok\":false,\"error\":\"") && !got.contains("internal"), got);
        }
    }

    /** sample draws on from one request to the next: two identical requests answer different draws, in range. */
    private static void sampleStream() {
        String request = "{\"id\":1,\"op\":\"sample\",\"policy\":{\"jitter_factor\":0.5},\"delay\":8,\"count\":64}";
        String first = answer(request);
        String second = answer(request);
        check("consecutive sample answers differ (the stream goes on, never reseeded)",
                first.startsWith("{\"id\":1,\"ok\":true,\"result\":[") && !first.equals(second), "");
        boolean inRange = true;
        for (String item : (first + second).replaceAll("\\{[^\\[]*\\[|\\]\\}", ",").split(",")) {
            if (!item.isEmpty()) {
                double d = Double.parseDouble(item);
                inRange &= d >= 4 && d <= 12;
            }
        }
        check("sample draws are within [d (1 - f), d (1 + f)]", inRange, "");
    }

    /** The items of a successful answer's result array, as text ("null" for give up); empty if not one. */
    private static List<String> items(String answer, String id) {
        String head = "{\"id\":" + id + ",\"ok\":true,\"result\":[";
        if (!answer.startsWith(head) || !answer.endsWith("]}")) {
            return List.of();
        }
        return List.of(answer.substring(head.length(), answer.length() - 2).split(","));
    }

    private static boolean allWithin(List<String> items, double low, double high) {
        for (String item : items) {
            double d = Double.parseDouble(item);
            if (!(d >= low && d <= high)) {
                return false;
            }
        }
        return true;
    }

    /**
     * sample's threads: T threads draw at once from the default source. The
     * answer is count draws in the band; no value comes twice, so the threads
     * did not draw one stream each (nor get stuck); threads is an integer in
     * [1, 64], a member of sample, and the first call's checks come first.
     */
    private static void sampleThreads() {
        String jittered = "\"policy\":{\"jitter_factor\":0.5},\"delay\":8";
        List<String> four = items(answer("{\"id\":1,\"op\":\"sample\"," + jittered + ",\"count\":1000,\"threads\":4}"), "1");
        check("sample, threads 4: count draws, each in [d (1 - f), d (1 + f)]",
                four.size() == 1000 && allWithin(four, 4, 12), four.size() + " draws");
        Set<String> distinct = new HashSet<>(four);
        check("sample, threads 4: no value twice (not one stream per thread, none stuck)", distinct.size() == 1000,
                distinct.size() + " distinct of " + four.size());
        List<String> sixtyFour = items(answer("{\"id\":2,\"op\":\"sample\"," + jittered + ",\"count\":6400,\"threads\":64}"), "2");
        Set<String> firsts = new HashSet<>();
        for (int t = 0; t < 64 && sixtyFour.size() == 6400; t++) {
            firsts.add(sixtyFour.get(100 * t)); // thread t's first draw: the answer is thread by thread
        }
        check("sample, threads 64: 6400 draws, all distinct, the 64 threads' first draws distinct",
                sixtyFour.size() == 6400 && new HashSet<>(sixtyFour).size() == 6400 && firsts.size() == 64,
                sixtyFour.size() + " draws, " + firsts.size() + " distinct first draws");
        List<String> few = items(answer("{\"id\":3,\"op\":\"sample\"," + jittered + ",\"count\":3,\"threads\":8}"), "3");
        check("sample, threads 8 for count 3: 3 draws (threads past the count make none)",
                few.size() == 3 && allWithin(few, 4, 12), few.toString());
        List<String> attempts = items(answer("{\"id\":4,\"op\":\"sample\",\"policy\":{\"max_attempts\":3,"
                + "\"initial_delay\":8,\"jitter_factor\":0.5},\"attempt\":1,\"count\":101,\"threads\":4}"), "4");
        check("sample by attempt, threads 4: 101 draws in the band", attempts.size() == 101 && allWithin(attempts, 4, 12),
                attempts.size() + " draws");
        String gives = answer("{\"id\":5,\"op\":\"sample\",\"policy\":{\"max_attempts\":1},\"attempt\":1,\"count\":3,\"threads\":2}");
        check("sample, threads 2, a policy that gives up: nulls", gives.equals("{\"id\":5,\"ok\":true,\"result\":[null,null,null]}"),
                gives);
        String one = answer("{\"id\":6,\"op\":\"sample\"," + jittered + ",\"count\":2,\"threads\":1}");
        check("sample, threads 1: as without it", items(one, "6").size() == 2, one);
        String[][] refused = {
                {"0", "threads: must be in [1, 64], got 0"},
                {"65", "threads: must be in [1, 64], got 65"},
                {"\"x\"", "threads: must be an integer in [1, 64], written without fraction or exponent, got \\\"x\\\""},
                {"4.0", "threads: must be an integer in [1, 64]"},
                {"null", "threads: must be an integer in [1, 64]"},
                {"-1", "threads: must be in [1, 64], got -1"},
                {"18446744073709551616", "threads: must be in [1, 64]"},
        };
        for (String[] c : refused) {
            String got = answer("{\"id\":7,\"op\":\"sample\"," + jittered + ",\"count\":4,\"threads\":" + c[0] + "}");
            check("sample, threads " + c[0] + ": an error naming threads",
                    got.startsWith("{\"id\":7,\"ok\":false,\"error\":\"" + c[1]), got);
        }
        String misspelt = answer("{\"id\":8,\"op\":\"sample\"," + jittered + ",\"count\":4,\"thread\":4}");
        check("a misspelt threads is an error, and the members listed include threads",
                misspelt.startsWith("{\"id\":8,\"ok\":false,\"error\":\"\\\"thread\\\": not a member")
                        && misspelt.contains("count, threads)"), misspelt);
        String notSchedule = answer("{\"id\":9,\"op\":\"schedule\",\"policy\":{},\"threads\":4}");
        check("threads is not a member of other ops", notSchedule.startsWith("{\"id\":9,\"ok\":false,\"error\":\"\\\"threads\\\""),
                notSchedule);
        String nan = answer("{\"id\":10,\"op\":\"sample\",\"policy\":{},\"delay\":\"NaN\",\"count\":4,\"threads\":4}");
        check("sample, threads 4: a NaN delay is an error (before any thread)",
                nan.startsWith("{\"id\":10,\"ok\":false,\"error\":\"delay: "), nan);
        String cost = answer("{\"id\":11,\"op\":\"sample\",\"policy\":{\"max_attempts\":9223372036854775807,"
                + "\"initial_delay\":1,\"multiplier\":1.0000000000000002},\"count\":4,\"attempt\":2000000,\"threads\":4}");
        check("sample, threads 4: the cost limit is an error (before any thread)",
                cost.startsWith("{\"id\":11,\"ok\":false,\"error\":\"attempt: "), cost);
    }

    /** The answer the port itself gives to replay of seed 42, calls [[1,0],[2,0]], after skip draws of srand(42). */
    private static String afterSkipping(int skip) {
        RetryPolicy policy = RetryPolicy.builder().maxAttempts(3).initialDelay(1).jitterFactor(1).build();
        RubyRandom source = new RubyRandom(42);
        for (int k = 0; k < skip; k++) {
            source.getAsDouble();
        }
        return "{\"id\":1,\"ok\":true,\"result\":[" + write(policy.nextDelay(1, 0, true, source).getAsDouble())
                + "," + write(policy.nextDelay(2, 0, true, source).getAsDouble()) + "]}";
    }

    /**
     * replay's skip: draws of srand(seed) discarded before the first call,
     * an integer in [0, 2^16], 0 when absent, a member of replay only.
     */
    private static void replaySkip() {
        String head = "{\"id\":1,\"op\":\"replay\",\"policy\":{\"max_attempts\":3,\"initial_delay\":1,"
                + "\"jitter_factor\":1},\"seed\":42,";
        String calls = "\"calls\":[[1,0],[2,0]]}";
        String absent = answer(head + calls);
        check("replay without skip: from the first draw", absent.equals(afterSkipping(0)), absent);
        String zero = answer(head + "\"skip\":0," + calls);
        check("replay, skip 0: as without it", zero.equals(afterSkipping(0)), zero);
        String past = answer(head + "\"skip\":312," + calls);
        check("replay, skip 312: from the 313th draw, past the state's first refill",
                past.equals(afterSkipping(312)), past);
        // retry-policy serve's answer to the same request with one call.
        String core = answer(head + "\"skip\":312,\"calls\":[[1,0]]}");
        check("replay, skip 312: the core's answer", core.equals("{\"id\":1,\"ok\":true,\"result\":[0.05070148683091502]}"),
                core);
        String most = answer(head + "\"skip\":65536," + calls);
        check("replay, skip 65536: the most", most.equals(afterSkipping(65536)), most);
        for (String skip : new String[] {"65537", "-1", "2.0", "\"0\"", "null", "true", "1e2"}) {
            String got = answer(head + "\"skip\":" + skip + "," + calls);
            check("replay, skip " + skip + ": an error naming skip",
                    got.startsWith("{\"id\":1,\"ok\":false,\"error\":\"skip: "), got);
        }
        String notSchedule = answer("{\"id\":2,\"op\":\"schedule\",\"policy\":{},\"skip\":0}");
        check("skip is not a member of other ops",
                notSchedule.startsWith("{\"id\":2,\"ok\":false,\"error\":\"\\\"skip\\\""), notSchedule);
    }

    public static void main(String[] args) throws IOException {
        int randomCount = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        logarithms();
        shortestNumbers(randomCount);
        numberStyle();
        json();
        lines();
        answers();
        sampleStream();
        sampleThreads();
        replaySkip();
        tally.finish();
    }
}
