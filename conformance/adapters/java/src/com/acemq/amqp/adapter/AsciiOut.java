package com.acemq.amqp.adapter;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * One answer line being written, as bytes. Everything written is ASCII: the
 * protocol's answers are ASCII, so strings escape everything outside
 * printable ASCII ({@link #string}), and numbers are written here in their
 * shortest round-trip form ({@link #number}).
 */
final class AsciiOut {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private byte[] bytes = new byte[1 << 12];
    private int length;
    private final ShortestDecimal decimal = new ShortestDecimal();
    private final byte[] digits = new byte[20];

    void reset() {
        length = 0;
    }

    private void room(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }

    AsciiOut raw(char c) {
        room(1);
        bytes[length++] = (byte) c;
        return this;
    }

    /** Text known to be ASCII: the answer's own punctuation and literals. */
    AsciiOut raw(String ascii) {
        int n = ascii.length();
        room(n);
        for (int i = 0; i < n; i++) {
            bytes[length++] = (byte) ascii.charAt(i);
        }
        return this;
    }

    /**
     * A JSON string. Java strings are UTF-16, so a character above U+FFFF is
     * already a surrogate pair and comes out as two {@code \\u} escapes, as
     * JSON wants; anything outside printable ASCII is escaped, so the answer
     * is ASCII whatever the request held.
     */
    AsciiOut string(String s) {
        int n = s.length();
        room(n + 2);
        bytes[length++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                raw('\\').raw(c);
            } else if (c >= 0x20 && c < 0x7f) {
                raw(c);
            } else {
                room(6);
                bytes[length++] = '\\';
                bytes[length++] = 'u';
                bytes[length++] = HEX[(c >> 12) & 0xf];
                bytes[length++] = HEX[(c >> 8) & 0xf];
                bytes[length++] = HEX[(c >> 4) & 0xf];
                bytes[length++] = HEX[c & 0xf];
            }
        }
        return raw('"');
    }

    AsciiOut integer(long value) {
        return raw(Long.toString(value));
    }

    /**
     * A binary64 on the wire: the shortest decimal that reads back to the
     * same bits (ShortestDecimal, not JDK 17's Double.toString, which is not
     * always shortest), styled as Python's repr is: {@code 1.0}, {@code 0.0001},
     * {@code 1e-05}, {@code 1.5e+16}. Negative zero is {@code -0.0}, never
     * {@code -0}, which reads back as the integer 0, +0.0. Non-finite values
     * are the strings {@code "Infinity"}, {@code "-Infinity"}, {@code "NaN"}.
     */
    AsciiOut number(double x) {
        if (Double.isNaN(x)) {
            return raw("\"NaN\"");
        }
        if (Double.isInfinite(x)) {
            return raw(x > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        }
        if (x == 0) {
            return raw(Double.doubleToRawLongBits(x) < 0 ? "-0.0" : "0.0");
        }
        if (x < 0) {
            raw('-');
        }
        decimal.set(x);
        long f = decimal.significand;
        int n = 0;
        for (long rest = f; rest != 0; rest /= 10) {
            digits[n++] = (byte) ('0' + rest % 10);
        }
        reverse(digits, n);
        int point = n + decimal.exponent; // x = 0.d1 d2 ... dn * 10^point
        room(n + 24);
        if (-4 < point && point <= 16) {
            if (point <= 0) {
                raw("0.");
                for (int i = point; i < 0; i++) {
                    bytes[length++] = '0';
                }
                append(digits, 0, n);
            } else if (point < n) {
                append(digits, 0, point);
                bytes[length++] = '.';
                append(digits, point, n);
            } else {
                append(digits, 0, n);
                for (int i = n; i < point; i++) {
                    bytes[length++] = '0';
                }
                raw(".0");
            }
            return this;
        }
        bytes[length++] = digits[0];
        if (n > 1) {
            bytes[length++] = '.';
            append(digits, 1, n);
        }
        int e = point - 1;
        bytes[length++] = 'e';
        bytes[length++] = (byte) (e < 0 ? '-' : '+');
        e = Math.abs(e);
        if (e < 10) {
            bytes[length++] = '0';
        }
        return raw(Integer.toString(e));
    }

    private static void reverse(byte[] a, int n) {
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            byte t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    private void append(byte[] from, int start, int stop) {
        System.arraycopy(from, start, bytes, length, stop - start);
        length += stop - start;
    }

    /** The answer so far, for tests and messages. */
    @Override
    public String toString() {
        return new String(bytes, 0, length, java.nio.charset.StandardCharsets.US_ASCII);
    }

    void writeLineTo(OutputStream out) throws IOException {
        raw('\n');
        out.write(bytes, 0, length);
    }
}
