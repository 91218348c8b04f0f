package com.acemq.amqp.adapter;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader (RFC 8259) for one request line, and the writer of
 * values read by it. The JDK has no JSON library and Jackson is not allowed
 * here, so this is the protocol's reader, and it is as strict as the protocol
 * (docs/protocol.md, Requests): exactly one value; no byte-order mark;
 * valid UTF-8; no lone surrogate; no bare {@code NaN} or {@code Infinity};
 * no number beyond binary64; no control character or NUL byte in a string;
 * nothing but JSON whitespace after the value; nesting at most 32.
 *
 * <p>Values: {@link #NULL}, {@link Boolean}, {@link Num}, {@link String},
 * {@code List<Object>}, {@code Map<String, Object>} (the last duplicate key
 * counts).
 */
final class Json {
    /** JSON's null: a value, not an absence (an absent member is Java's null). */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /**
     * A number: its text as written (an id is echoed with it), its value with
     * one correct rounding, and whether it was written as an integer (no
     * fraction, no exponent): {@code 5.0} is not an integer.
     */
    record Num(String text, double value, boolean integer) {
    }

    private final char[] s;
    private final int n;
    private final int maxDepth;
    private int i;

    private Json(char[] s, int n, int maxDepth) {
        this.s = s;
        this.n = n;
        this.maxDepth = maxDepth;
    }

    /**
     * Reads one request line (its bytes, without the LF) as one JSON value.
     *
     * @throws ProtocolError a malformed line
     */
    static Object parse(byte[] bytes, int length, CharsetDecoder utf8, int maxDepth) throws ProtocolError {
        if (length >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF) {
            throw ProtocolError.malformed("starts with a byte-order mark");
        }
        // REPORT, not the default REPLACE: invalid UTF-8 (and UTF-8 encoded
        // surrogates, overlong forms, truncated sequences) is a malformed
        // line, not U+FFFD. UTF-8 never makes more UTF-16 chars than bytes.
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
        CharBuffer chars = CharBuffer.allocate(length);
        CoderResult result = utf8.reset().decode(in, chars, true);
        if (!result.isError()) {
            result = utf8.flush(chars);
        }
        if (result.isError() || result.isOverflow()) {
            throw ProtocolError.malformed("invalid UTF-8, at byte " + (in.position() + 1));
        }
        chars.flip();
        Json reader = new Json(chars.array(), chars.limit(), maxDepth);
        reader.skipWhitespace();
        if (reader.i == reader.n) {
            throw ProtocolError.malformed("empty; a request is one JSON object");
        }
        Object value = reader.value(0);
        reader.skipWhitespace();
        if (reader.i != reader.n) {
            // Also a NUL byte after the value: it is not JSON whitespace.
            throw reader.error("more than one JSON value, or text after it");
        }
        return value;
    }

    /** A UTF-8 decoder that reports, rather than replaces, what is not UTF-8; one a thread, reset per line. */
    static CharsetDecoder strictUtf8() {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    private ProtocolError error(String why) {
        return ProtocolError.malformed(why + ", at character " + (i + 1));
    }

    // JSON whitespace is space, tab, LF and CR, nothing else: not NUL, not
    // form feed, not vertical tab.
    private void skipWhitespace() {
        while (i < n) {
            char c = s[i];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return;
            }
            i++;
        }
    }

    private Object value(int depth) throws ProtocolError {
        if (i == n) {
            throw error("ends inside a JSON value (truncated?)");
        }
        char c = s[i];
        switch (c) {
            case '{':
                return object(depth + 1);
            case '[':
                return array(depth + 1);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", NULL);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                if (startsWith("NaN") || startsWith("Infinity")) {
                    throw error("bare NaN or Infinity; write the strings \"NaN\", \"Infinity\"");
                }
                throw error("not JSON");
        }
    }

    private boolean startsWith(String word) {
        return n - i >= word.length() && new String(s, i, word.length()).equals(word);
    }

    private Object literal(String word, Object value) throws ProtocolError {
        if (!startsWith(word)) {
            throw error("not JSON");
        }
        i += word.length();
        return value;
    }

    // Depth counts each object and array, the line's own object being 1: the
    // reader never recurses deeper than the limit, so 200,000 brackets cost
    // nothing.
    private void enter(int depth) throws ProtocolError {
        if (depth > maxDepth) {
            throw ProtocolError.malformed("arrays and objects nest deeper than the protocol's " + maxDepth);
        }
        i++;
        skipWhitespace();
    }

    private Map<String, Object> object(int depth) throws ProtocolError {
        enter(depth);
        Map<String, Object> members = new LinkedHashMap<>();
        if (i < n && s[i] == '}') {
            i++;
            return members;
        }
        while (true) {
            if (i == n || s[i] != '"') {
                throw i == n ? error("ends inside a JSON value (truncated?)") : error("not JSON: a member name must be a string");
            }
            String key = string();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            members.put(key, value(depth)); // a duplicate key: the last one counts
            skipWhitespace();
            if (i < n && s[i] == ',') {
                i++;
                skipWhitespace();
                continue;
            }
            expect('}');
            return members;
        }
    }

    private List<Object> array(int depth) throws ProtocolError {
        enter(depth);
        List<Object> elements = new ArrayList<>();
        if (i < n && s[i] == ']') {
            i++;
            return elements;
        }
        while (true) {
            elements.add(value(depth));
            skipWhitespace();
            if (i < n && s[i] == ',') {
                i++;
                skipWhitespace();
                continue;
            }
            expect(']');
            return elements;
        }
    }

    private void expect(char c) throws ProtocolError {
        if (i == n) {
            throw error("ends inside a JSON value (truncated?)");
        }
        if (s[i] != c) {
            throw error("not JSON: expected '" + c + "'");
        }
        i++;
    }

    private String string() throws ProtocolError {
        i++; // the opening quote
        StringBuilder out = new StringBuilder();
        while (true) {
            if (i == n) {
                throw error("ends inside a JSON value (truncated?)");
            }
            char c = s[i++];
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                // Control characters, NUL included, must be escaped.
                i--;
                throw error("a string holds an unescaped control character");
            }
            if (c != '\\') {
                // Raw characters came through the strict decoder, so a
                // surrogate here is always half of a valid pair.
                out.append(c);
                continue;
            }
            if (i == n) {
                throw error("ends inside a JSON value (truncated?)");
            }
            char e = s[i++];
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    char unit = hex4();
                    // A lone surrogate is no Unicode text: RFC 8259's strings
                    // are, and the C++ reader refuses one. A high half must be
                    // followed at once by an escaped low half.
                    if (Character.isLowSurrogate(unit)) {
                        throw error("a string holds a lone surrogate (\\ud800 to \\udfff)");
                    }
                    if (Character.isHighSurrogate(unit)) {
                        if (!(n - i >= 2 && s[i] == '\\' && s[i + 1] == 'u')) {
                            throw error("a string holds a lone surrogate (\\ud800 to \\udfff)");
                        }
                        i += 2;
                        char low = hex4();
                        if (!Character.isLowSurrogate(low)) {
                            throw error("a string holds a lone surrogate (\\ud800 to \\udfff)");
                        }
                        out.append(unit).append(low);
                    } else {
                        out.append(unit);
                    }
                }
                default -> {
                    i--;
                    throw error("a string holds an invalid escape");
                }
            }
        }
    }

    private char hex4() throws ProtocolError {
        if (n - i < 4) {
            throw error("a string holds an invalid escape");
        }
        int unit = 0;
        for (int k = 0; k < 4; k++) {
            char c = s[i + k];
            int digit = c >= '0' && c <= '9' ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (digit < 0) {
                throw error("a string holds an invalid escape");
            }
            unit = unit * 16 + digit;
        }
        i += 4;
        return (char) unit;
    }

    private Num number() throws ProtocolError {
        int start = i;
        if (s[i] == '-') {
            i++;
        }
        if (i < n && s[i] == '0') {
            i++;
        } else if (!digits()) {
            throw error("a malformed number");
        }
        boolean integer = true;
        if (i < n && s[i] == '.') {
            integer = false;
            i++;
            if (!digits()) {
                throw error("a malformed number");
            }
        }
        if (i < n && (s[i] == 'e' || s[i] == 'E')) {
            integer = false;
            i++;
            if (i < n && (s[i] == '+' || s[i] == '-')) {
                i++;
            }
            if (!digits()) {
                throw error("a malformed number");
            }
        }
        String text = new String(s, start, i - start);
        // The grammar is checked above, so parseDouble sees only JSON number
        // text (it would also take "1d", "0x1p3", "Infinity"); its rounding
        // is correct.
        double value = Double.parseDouble(text);
        if (Double.isInfinite(value)) {
            // parseDouble gives Infinity for 1e400 (or 309 nines) where the
            // protocol calls the line malformed: every number token is tested.
            throw ProtocolError.malformed("the number " + Fields.clip(text)
                    + " is beyond binary64's range (write \"Infinity\" for an infinite value)");
        }
        if (integer && value == 0) {
            // The integer literal -0 is the integer zero, +0.0; parseDouble("-0") is -0.0.
            value = 0.0;
        }
        return new Num(text, value, integer);
    }

    private boolean digits() {
        int start = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
        }
        return i > start;
    }

    // ---- Writing values back ------------------------------------------------

    /** Writes a value read by {@link #parse} as ASCII JSON; a number as its own text, so an id keeps its value. */
    static void write(AsciiOut out, Object v) {
        if (v == null || v == NULL) {
            out.raw("null");
        } else if (v instanceof Boolean b) {
            out.raw(b ? "true" : "false");
        } else if (v instanceof Num number) {
            out.raw(number.text());
        } else if (v instanceof String string) {
            out.string(string);
        } else if (v instanceof List<?> list) {
            out.raw('[');
            for (int k = 0; k < list.size(); k++) {
                if (k > 0) {
                    out.raw(',');
                }
                write(out, list.get(k));
            }
            out.raw(']');
        } else if (v instanceof Map<?, ?> map) {
            out.raw('{');
            boolean first = true;
            for (Map.Entry<?, ?> member : map.entrySet()) {
                if (!first) {
                    out.raw(',');
                }
                first = false;
                out.string((String) member.getKey());
                out.raw(':');
                write(out, member.getValue());
            }
            out.raw('}');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + v.getClass());
        }
    }
}
