package com.acemq.amqp;

/**
 * An invalid parameter or argument of a {@link RetryPolicy}: a bad policy is a
 * bug at its source, so it is refused where it is made (docs/contract.md,
 * Decisions). The message names the parameter and the value, e.g.
 * {@code RetryPolicy: jitter_factor must be in [0, 1], got 1.5}, with the
 * contract's parameter names, as every port of the family writes them.
 */
public final class RetryPolicyArgumentException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String parameter;
    private final String rule;
    private final String value;

    RetryPolicyArgumentException(String where, String parameter, String rule, String value) {
        super(where + ": " + parameter + " must be " + rule + ", got " + value);
        this.parameter = parameter;
        this.rule = rule;
        this.value = value;
    }

    /** The contract's name of what was refused: {@code max_attempts}, {@code attempt}, {@code r}... */
    public String parameter() {
        return parameter;
    }

    /** What it must be, e.g. {@code in [0, 1]}. */
    public String rule() {
        return rule;
    }

    /** The refused value, as text. */
    public String value() {
        return value;
    }
}
