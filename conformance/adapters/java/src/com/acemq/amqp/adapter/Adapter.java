package com.acemq.amqp.adapter;

import com.acemq.amqp.RetryPolicy;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.CharsetDecoder;
import java.util.Map;

/**
 * The Java port's adapter: speaks the conformance protocol
 * (docs/protocol.md) on stdin and stdout for
 * {@link RetryPolicy}: one JSON request a line in, one answer a line out,
 * flushed, until the end of input, then exit 0.
 *
 * <pre>
 * javac -d /tmp/java-build $(find conformance/adapters/java/src -name '*.java')
 * retry-policy check --impl "java -cp /tmp/java-build com.acemq.amqp.adapter.Adapter"
 * </pre>
 *
 * Written from the protocol's text, JDK 17 standard library only; each Java
 * trap is commented where it is handled.
 */
public final class Adapter {
    static final int MAX_LINE_BYTES = 1 << 20; // a longer request line is an error
    static final int MAX_DEPTH = 32;           // arrays and objects nest at most this deep

    private final CharsetDecoder utf8 = Json.strictUtf8();

    Adapter() {
    }

    public static void main(String[] args) throws IOException {
        // Raw file descriptors: the line reader does its own buffering, and an
        // answer goes out in one write.
        LineReader lines = new LineReader(new FileInputStream(FileDescriptor.in), MAX_LINE_BYTES);
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        Adapter adapter = new Adapter();
        AsciiOut answer = new AsciiOut();
        while (lines.next()) {
            answer.reset();
            if (lines.tooLong()) {
                // Consumed without being stored: LineReader only counted it.
                error(answer, null, "line: " + lines.length() + " bytes is longer than the protocol's "
                        + MAX_LINE_BYTES);
            } else {
                adapter.answer(lines.bytes(), lines.length(), answer);
            }
            try {
                answer.writeLineTo(out);
                // Flushed after each answer, before reading on: the checker
                // waits for it. (A FileOutputStream does not buffer; the
                // flush says so, and keeps it true if a buffer is added.)
                out.flush();
            } catch (IOException checkerWentAway) {
                System.exit(1);
            }
        }
        System.exit(0); // end of input
    }

    /** Answers one request line (its bytes, without the LF) into {@code out}. */
    void answer(byte[] line, int length, AsciiOut out) {
        Object id = null; // echoed as null until the request is known to have one
        try {
            Object value = Json.parse(line, length, utf8, MAX_DEPTH);
            if (!(value instanceof Map<?, ?>)) {
                throw ProtocolError.malformed("must be a JSON object, got " + Fields.quote(value));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> request = (Map<String, Object>) value;
            id = request.get("id");
            Object name = Fields.required(request, "op", "op");
            Ops.Op op = name instanceof String text ? Ops.TABLE.get(text) : null;
            if (op == null) {
                throw ProtocolError.of("op: must be " + Ops.OP_NAMES + ", got " + Fields.quote(name));
            }
            Fields.onlyMembers(request, op.members(), Ops.VECTOR_LINE_MEMBERS, "", "a " + name + " request");
            RetryPolicy policy = Policies.from(Fields.required(request, "policy", "policy"));
            Ops.Result result = op.answer().answer(request, policy);
            out.raw("{\"id\":");
            Json.write(out, id);
            out.raw(",\"ok\":true,\"result\":");
            result.write(out);
            out.raw('}');
        } catch (ProtocolError e) {
            out.reset();
            error(out, e.malformed() ? null : id, e.getMessage());
        } catch (RuntimeException e) {
            // Not expected: every rule is checked above. Still an answer, so
            // the conversation goes on, and the message says where to look.
            out.reset();
            error(out, id, "internal: " + e);
        }
    }

    private static void error(AsciiOut out, Object id, String message) {
        out.raw("{\"id\":");
        Json.write(out, id);
        out.raw(",\"ok\":false,\"error\":");
        out.string(message);
        out.raw('}');
    }
}
