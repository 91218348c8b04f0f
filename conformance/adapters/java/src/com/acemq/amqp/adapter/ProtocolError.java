package com.acemq.amqp.adapter;

/**
 * A request that cannot be answered: the answer is {@code "ok": false} with
 * this message, which names the field first ({@code <field>: <what>}). A
 * malformed line (not one JSON object) is answered with id null.
 */
final class ProtocolError extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean malformed;

    private ProtocolError(String message, boolean malformed) {
        // No stack trace: an error answer is an ordinary outcome, not a bug.
        super(message, null, false, false);
        this.malformed = malformed;
    }

    /** An error about a request that was read; its id is echoed. */
    static ProtocolError of(String message) {
        return new ProtocolError(message, false);
    }

    /** The line is not one JSON object: the answer's id is null. */
    static ProtocolError malformed(String why) {
        return new ProtocolError("line: " + why, true);
    }

    boolean malformed() {
        return malformed;
    }
}
