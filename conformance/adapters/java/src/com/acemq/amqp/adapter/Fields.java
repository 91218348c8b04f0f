package com.acemq.amqp.adapter;

import java.util.List;
import java.util.Map;

/**
 * Reading a request's fields by the protocol's rules (docs/protocol.md,
 * Requests): numbers, integers, draws, booleans, required and unknown
 * members. Every refusal is a {@link ProtocolError} naming the field.
 */
final class Fields {
    private Fields() {
    }

    static String clip(String text) {
        return text.length() > 60 ? text.substring(0, 60) + "..." : text;
    }

    /** A value as compact JSON, clipped, for a message. */
    static String quote(Object value) {
        AsciiOut out = new AsciiOut();
        Json.write(out, value);
        return clip(out.toString());
    }

    /** A double as the answer writes it. */
    static String show(double x) {
        return new AsciiOut().number(x).toString();
    }

    static Object required(Map<String, Object> object, String key, String path) throws ProtocolError {
        Object v = object.get(key);
        if (v == null) { // absent; JSON's null is Json.NULL, a value, refused by the readers below
            throw ProtocolError.of(path + ": missing");
        }
        return v;
    }

    /**
     * A number field: a JSON number (its value was rounded once, and the
     * integer literal -0 made +0.0, when the line was read), or one of the
     * strings "Infinity", "-Infinity", "NaN". null, booleans and other
     * strings are errors.
     */
    static double number(Object v, String path) throws ProtocolError {
        if (v instanceof Json.Num number) {
            return number.value();
        }
        if (v instanceof String text) {
            switch (text) {
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                case "NaN":
                    return Double.NaN;
                default:
                    break;
            }
        }
        throw ProtocolError.of(path + ": must be a number or \"Infinity\", \"-Infinity\", \"NaN\", got " + quote(v));
    }

    /**
     * An integer field: only a JSON number written without fraction or
     * exponent ({@code 5}, not {@code 5.0} or {@code 5e0}, though those are
     * whole numbers: the text decides, not the value), in [lowest, highest].
     */
    static long integer(Object v, String path, long lowest, long highest) throws ProtocolError {
        if (!(v instanceof Json.Num number) || !number.integer()) {
            throw ProtocolError.of(path + ": must be an integer in [" + lowest + ", " + highest
                    + "], written without fraction or exponent, got " + quote(v));
        }
        long value;
        try {
            value = Long.parseLong(number.text()); // "-0" is 0
        } catch (NumberFormatException beyondInt64) {
            throw ProtocolError.of(path + ": must be in [" + lowest + ", " + highest + "], got " + quote(v));
        }
        if (value < lowest || value > highest) {
            throw ProtocolError.of(path + ": must be in [" + lowest + ", " + highest + "], got " + quote(v));
        }
        return value;
    }

    /** {@code r}: a number in [0, 1), checked whenever it is required, even if no draw ends up taken. */
    static double draw(Object v, String path) throws ProtocolError {
        double r = number(v, path);
        if (!(r >= 0 && r < 1)) {
            throw ProtocolError.of(path + ": must be in [0, 1), got " + show(r));
        }
        return r;
    }

    static boolean bool(Object v, String path) throws ProtocolError {
        if (v instanceof Boolean b) {
            return b;
        }
        throw ProtocolError.of(path + ": must be true or false, got " + quote(v));
    }

    /** Any member not in {@code allowed} (nor in {@code also}) is an error naming it. */
    static void onlyMembers(Map<String, Object> object, List<String> allowed, List<String> also,
                            String prefix, String what) throws ProtocolError {
        for (String key : object.keySet()) {
            if (!allowed.contains(key) && !also.contains(key)) {
                throw ProtocolError.of(prefix + quote(key) + ": not a member of " + what
                        + " (its members: " + String.join(", ", allowed) + ")");
            }
        }
    }
}
