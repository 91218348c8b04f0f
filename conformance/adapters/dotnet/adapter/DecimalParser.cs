using System;
using System.Numerics;

namespace AceMQ.Amqp.Conformance
{
    /// <summary>
    /// A JSON number's text read as the binary64 value nearest to it: one
    /// correct rounding, ties to even, as strtod, Double.parseDouble and
    /// strconv.ParseFloat do.
    /// </summary>
    /// <remarks>
    /// Not double.Parse: Mono's (and mcs's, for literals) is not correctly
    /// rounded. Measured on Mono 6.8: 13,283 of 199,540 strings read to the
    /// wrong double, among them 4e-106, 37990e-141, the 17-digit
    /// 28605893203577697e-176, subnormals, and exact midpoints between two
    /// doubles (not rounded to even). It also throws OverflowException for
    /// 1e400 and gives +0.0 for "-0.0". So: the exact fast path where it is
    /// exact (at most 15 digits, a power of ten up to 10^22, one rounding),
    /// and otherwise exact integer arithmetic (BigInteger) with one rounding.
    /// </remarks>
    public static class DecimalParser
    {
        // A decimal that rounds to a boundary between two doubles has at most
        // 767 significant digits; 800 kept, plus one sticky digit for any
        // non-zero digit dropped, keep every number on the same side of every
        // boundary, so a megabyte of digits costs no more than 800.
        private const int KeptDigits = 800;

        // 10^0 .. 10^22, each exact (5^22 < 2^53), made by multiplication, not
        // read from literals (see the remark above).
        private static readonly double[] ExactPowersOfTen = MakePowersOfTen();

        private static double[] MakePowersOfTen()
        {
            var powers = new double[23];
            powers[0] = 1.0;
            for (int i = 1; i < powers.Length; i++) powers[i] = (double)(powers[i - 1] * 10.0);
            return powers;
        }

        /// <summary>
        /// Reads text[start..end), which must match JSON's number grammar
        /// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? (the caller checked).
        /// Returns false when the value is beyond binary64's range (it would
        /// round to an infinity); underflow reads as 0 or a subnormal, with
        /// the sign of the text ("-1e-400" is -0.0).
        /// </summary>
        public static bool TryParse(string text, int start, int end, out double value)
        {
            int i = start;
            bool negative = text[i] == '-';
            if (negative) i++;

            var kept = new char[Math.Min(KeptDigits, end - start)];
            int keptCount = 0;
            bool sticky = false;          // a non-zero digit was dropped after the kept ones
            long pointShift = 0;          // digits kept or dropped before the point, minus leading fraction zeros
            bool seenNonZero = false;
            for (; i < end && text[i] >= '0' && text[i] <= '9'; i++)
            {
                Digit(text[i], kept, ref keptCount, ref sticky, ref seenNonZero);
                if (seenNonZero) pointShift++;
            }
            if (i < end && text[i] == '.')
            {
                for (i++; i < end && text[i] >= '0' && text[i] <= '9'; i++)
                {
                    if (!seenNonZero && text[i] == '0')
                    {
                        pointShift--;
                        continue;
                    }
                    Digit(text[i], kept, ref keptCount, ref sticky, ref seenNonZero);
                }
            }
            long exponent10 = 0;
            if (i < end && (text[i] == 'e' || text[i] == 'E'))
            {
                i++;
                bool exponentNegative = false;
                if (text[i] == '+' || text[i] == '-') exponentNegative = text[i++] == '-';
                for (; i < end; i++)
                {
                    // Saturates: 10^±(10^12) is beyond any double either way.
                    if (exponent10 < 1000000000000L) exponent10 = exponent10 * 10 + (text[i] - '0');
                }
                if (exponentNegative) exponent10 = -exponent10;
            }
            if (keptCount == 0)
            {
                value = negative ? NegativeZero : 0.0;
                return true;
            }
            // The value is 0.d1d2d3... * 10^(pointShift + exponent10).
            long magnitude = pointShift + exponent10;
            if (magnitude > 310)
            {
                value = 0;
                return false;
            }
            if (magnitude < -330)
            {
                value = negative ? NegativeZero : 0.0;  // below half the least subnormal
                return true;
            }
            // digits * 10^e, digits the kept ones as an integer.
            int e = (int)(magnitude - keptCount);
            double result;
            if (!sticky && keptCount <= 15 && TryFastPath(kept, keptCount, e, out result))
            {
                value = negative ? -result : result;
                return true;
            }
            BigInteger digits = DigitsValue(kept, keptCount);
            if (sticky)
            {
                digits = digits * 10 + 1;
                e--;
            }
            if (!TryRound(e >= 0 ? digits * BigInteger.Pow(10, e) : digits,
                          e >= 0 ? BigInteger.One : BigInteger.Pow(10, -e), out result))
            {
                value = 0;
                return false;
            }
            value = negative ? -result : result;
            return true;
        }

        private static readonly double NegativeZero = BitConverter.Int64BitsToDouble(long.MinValue);

        private static void Digit(char c, char[] kept, ref int keptCount, ref bool sticky, ref bool seenNonZero)
        {
            if (!seenNonZero)
            {
                if (c == '0') return;  // a leading zero
                seenNonZero = true;
            }
            if (keptCount < kept.Length) kept[keptCount++] = c;
            else if (c != '0') sticky = true;
        }

        // Clinger's fast path: digits < 10^15 < 2^53 and 10^|e| <= 10^22 are
        // both exact doubles, so one multiplication or division is one correct
        // rounding of the exact value. (double) casts: no wider intermediate.
        private static bool TryFastPath(char[] kept, int count, int e, out double result)
        {
            long digits = 0;
            for (int i = 0; i < count; i++) digits = digits * 10 + (kept[i] - '0');
            result = 0;
            if (e >= 0 && e <= 22)
            {
                result = (double)((double)digits * ExactPowersOfTen[e]);
                return true;
            }
            if (e < 0 && e >= -22)
            {
                result = (double)((double)digits / ExactPowersOfTen[-e]);
                return true;
            }
            if (e > 22 && e <= 22 + (15 - count))
            {
                // digits * 10^(e - 22) is still an integer below 10^15: exact.
                for (int i = 22; i < e; i++) digits *= 10;
                result = (double)((double)digits * ExactPowersOfTen[22]);
                return true;
            }
            return false;
        }

        private static BigInteger DigitsValue(char[] kept, int count)
        {
            BigInteger value = BigInteger.Zero;
            int i = 0;
            while (i < count)
            {
                int take = Math.Min(18, count - i);
                long chunk = 0;
                long scale = 1;
                for (int k = 0; k < take; k++)
                {
                    chunk = chunk * 10 + (kept[i + k] - '0');
                    scale *= 10;
                }
                value = value * scale + chunk;
                i += take;
            }
            return value;
        }

        /// <summary>
        /// numerator / denominator (both positive) rounded to the nearest
        /// double, ties to even, subnormals included; false if it rounds to
        /// infinity.
        /// </summary>
        public static bool TryRound(BigInteger numerator, BigInteger denominator, out double result)
        {
            // q = floor(numerator * 2^s / denominator) in [2^62, 2^64), so that
            // the value is (q + f) * 2^-s with 0 <= f < 1; sticky is f != 0.
            int s = 63 - (BitLength(numerator) - BitLength(denominator));
            BigInteger scaledNumerator = s >= 0 ? numerator << s : numerator;
            BigInteger scaledDenominator = s >= 0 ? denominator : denominator << -s;
            BigInteger remainder;
            BigInteger quotient = BigInteger.DivRem(scaledNumerator, scaledDenominator, out remainder);
            ulong q = (ulong)quotient;
            bool sticky = !remainder.IsZero;
            int length = 64 - LeadingZeros(q);
            long topExponent = (long)length - 1 - s;           // value in [2^top, 2^(top+1))
            if (topExponent > 1023)
            {
                result = 0;
                return false;
            }
            long unitExponent = Math.Max(topExponent - 52, -1074);  // the last place kept
            long drop = unitExponent + s;                            // bits of q below it
            ulong m;
            if (drop >= 65)
            {
                m = 0;  // below half the least subnormal: q < 2^64 <= 2^(drop - 1)
            }
            else if (drop == 64)
            {
                m = 0;
                const ulong half = 1UL << 63;
                if (q > half || (q == half && sticky)) m = 1;
            }
            else
            {
                m = q >> (int)drop;
                ulong rest = q & ((1UL << (int)drop) - 1);
                ulong half = 1UL << ((int)drop - 1);
                if (rest > half || (rest == half && (sticky || (m & 1) == 1))) m++;
            }
            // ((unitExponent + 1074) << 52) + m is the encoding for every case:
            // m in [2^52, 2^53) adds the implicit bit into the exponent field,
            // a subnormal has unitExponent -1074, and a carry to 2^53 (or to
            // 2^52 from a subnormal) moves into the next binade by itself.
            long bits = ((unitExponent + 1074) << 52) + (long)m;
            if (bits >= 0x7FF0000000000000L)
            {
                result = 0;
                return false;
            }
            result = BitConverter.Int64BitsToDouble(bits);
            return true;
        }

        private static int BitLength(BigInteger x)
        {
            byte[] bytes = x.ToByteArray();  // little-endian, two's complement, x > 0
            int top = bytes.Length - 1;
            while (top > 0 && bytes[top] == 0) top--;
            int length = top * 8;
            for (int b = bytes[top]; b != 0; b >>= 1) length++;
            return length;
        }

        private static int LeadingZeros(ulong x)
        {
            int n = 0;
            if (x == 0) return 64;
            while ((x & 0x8000000000000000UL) == 0)
            {
                x <<= 1;
                n++;
            }
            return n;
        }
    }
}
