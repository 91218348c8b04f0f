package com.acemq.amqp.adapter;

import java.math.BigInteger;

/**
 * The shortest decimal that reads back to a given double, and of those the
 * closest (ties to an even digit): Giulietti's Schubfach, the algorithm JDK 19
 * adopted for {@code Double.toString} (JDK-4511638), here without Java's rule
 * of at least two digits. JDK 17's {@code Double.toString} is not always
 * shortest: it writes 1e23 as {@code 9.999999999999999E22} and
 * 2.82879384806159e17 as {@code 2.82879384806159008E17} (and, by its spec,
 * 5e-324 as {@code 4.9E-324}). Those read back to the same bits, so check
 * would accept them, but the protocol asks for the shortest form, so the
 * adapter writes it itself. test/.../adapter/WireTest.java checks it against
 * an exact BigDecimal search (every subnormal up to 20,000 ulps, every power
 * of two and its neighbours, 400,000 random doubles); its output was also
 * compared with Python's {@code repr} on 3,000,000 doubles, all identical.
 *
 * <p>One instance holds one result; not thread-safe.
 */
final class ShortestDecimal {
    private static final int Q_MIN = -1074;          // the least binary exponent, 2^-1074
    private static final long C_MIN = 1L << 52;       // the least normal significand
    private static final int K_MIN = -324;
    private static final int K_MAX = 292;
    private static final long MASK_63 = (1L << 63) - 1;

    /** g1, g0 a pair for each k in [K_MIN, K_MAX]: g = g1 2^63 + g0 = floor(10^-k 2^-r) + 1, 2^125 <= g < 2^126. */
    private static final long[] G = table();

    /** The result: {@code value = significand * 10^exponent}, the significand without trailing zeros. */
    long significand;
    int exponent;

    /** floor(log10(2^e)); exact for the exponents used here (WireTest checks |e| <= 1200). */
    static int flog10pow2(int e) {
        return (int) (e * 661_971_961_083L >> 41);
    }

    /** floor(log10(3/4 2^e)); exact for |e| <= 1200 (WireTest). */
    static int flog10threeQuartersPow2(int e) {
        return (int) (e * 661_971_961_083L + -274_743_187_321L >> 41);
    }

    /** floor(log2(10^e)); exact for |e| <= 400 (WireTest). */
    static int flog2pow10(int e) {
        return (int) (e * 913_124_641_741L >> 38);
    }

    private static long[] table() {
        long[] g = new long[2 * (K_MAX - K_MIN + 1)];
        BigInteger mask63 = BigInteger.valueOf(MASK_63);
        for (int k = K_MIN; k <= K_MAX; k++) {
            int r = flog2pow10(-k) - 125;
            // beta = 10^-k / 2^r, exactly, as a fraction numerator / denominator.
            BigInteger numerator = BigInteger.ONE;
            BigInteger denominator = BigInteger.ONE;
            if (k <= 0) {
                numerator = BigInteger.TEN.pow(-k);
            } else {
                denominator = BigInteger.TEN.pow(k);
            }
            if (r >= 0) {
                denominator = denominator.shiftLeft(r);
            } else {
                numerator = numerator.shiftLeft(-r);
            }
            BigInteger value = numerator.divide(denominator).add(BigInteger.ONE);
            if (value.bitLength() != 126) {
                throw new AssertionError("Schubfach table: g for k = " + k + " has " + value.bitLength() + " bits");
            }
            int at = 2 * (k - K_MIN);
            g[at] = value.shiftRight(63).longValueExact();
            g[at + 1] = value.and(mask63).longValueExact();
        }
        return g;
    }

    /** Sets the result for a finite, non-zero {@code v}; its sign is ignored. */
    void set(double v) {
        long bits = Double.doubleToRawLongBits(v);
        long t = bits & (C_MIN - 1);
        int bq = (int) (bits >>> 52) & 0x7ff;
        if (bq != 0) {
            int mq = -Q_MIN + 1 - bq; // v = c 2^-mq
            long c = C_MIN | t;
            if (0 < mq && mq < 53) {
                long f = c >> mq;
                if (f << mq == c) {
                    result(f, 0); // an integer below 2^53: its own digits
                    return;
                }
            }
            toDecimal(-mq, c);
        } else {
            // The JDK scales the two least subnormals by 10 first (C_TINY),
            // to honour Java's rule that Double.toString writes at least two
            // digits: 4.9E-324. The protocol wants the shortest, 5e-324, as
            // repr and to_chars write it, so every subnormal takes this path.
            toDecimal(Q_MIN, t);
        }
    }

    // v = c 2^q; the rounding interval of v, scaled by 4, is [cbl, cbr]
    // (closed when c is even: round half even reads its ends back as v).
    private void toDecimal(int q, long c) {
        int out = (int) c & 0x1;
        long cb = c << 2;
        long cbr = cb + 2;
        long cbl;
        int k;
        if (c != C_MIN | q == Q_MIN) {
            cbl = cb - 2; // regular spacing
            k = flog10pow2(q);
        } else {
            cbl = cb - 1; // the spacing below a power of two is half that above
            k = flog10threeQuartersPow2(q);
        }
        int h = q + flog2pow10(-k) + 2;
        long g1 = G[2 * (k - K_MIN)];
        long g0 = G[2 * (k - K_MIN) + 1];

        long vb = rop(g1, g0, cb << h);
        long vbl = rop(g1, g0, cbl << h);
        long vbr = rop(g1, g0, cbr << h);

        long s = vb >> 2;
        // The JDK tries one digit fewer only from s >= 100, again for Java's
        // two digits; from s >= 10 the subnormals below 1e-322 get their
        // shortest too (5e-323, not 4.9e-323). The interval is narrower than
        // 10 units of 10^k, so one digit fewer is all there can be.
        if (s >= 10) {
            // One digit fewer: s' = floor(s / 10), by a multiplication.
            long sp10 = 10 * Math.multiplyHigh(s, 115_292_150_460_684_698L << 4);
            long tp10 = sp10 + 10;
            boolean upin = vbl + out <= sp10 << 2;
            boolean wpin = (tp10 << 2) + out <= vbr;
            if (upin != wpin) {
                result(upin ? sp10 : tp10, k);
                return;
            }
        }
        long t = s + 1;
        boolean uin = vbl + out <= s << 2;
        boolean win = (t << 2) + out <= vbr;
        if (uin != win) {
            result(uin ? s : t, k);
            return;
        }
        // Both in the interval: the closer to v, an even one on a tie.
        long cmp = vb - (s + t << 1);
        result(cmp < 0 || cmp == 0 && (s & 0x1) == 0 ? s : t, k);
    }

    // Rounded to odd: floor(cp g / 2^127), its last bit set if anything was cut.
    private static long rop(long g1, long g0, long cp) {
        long x1 = Math.multiplyHigh(g0, cp);
        long y0 = g1 * cp;
        long y1 = Math.multiplyHigh(g1, cp);
        long z = (y0 >>> 1) + x1;
        long vbp = y1 + (z >>> 63);
        return vbp | (z & MASK_63) + MASK_63 >>> 63;
    }

    private void result(long f, int e) {
        while (f % 10 == 0) {
            f /= 10;
            e++;
        }
        significand = f;
        exponent = e;
    }
}
