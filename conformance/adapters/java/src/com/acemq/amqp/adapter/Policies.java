package com.acemq.amqp.adapter;

import com.acemq.amqp.RetryPolicy;
import com.acemq.amqp.RetryPolicyArgumentException;

import java.util.List;
import java.util.Map;

/**
 * A request's {@code policy} (docs/protocol.md, policy): the
 * constructor's fields by name, or a factory; the port makes and validates
 * the base policy, then {@code give_up_after}, then {@code with_jitter}, each
 * validating its own argument, so a copy cannot repair an invalid base.
 */
final class Policies {
    private Policies() {
    }

    private static final List<String> CONSTRUCTOR = List.of("max_attempts", "initial_delay", "multiplier",
            "max_delay", "jitter_factor", "max_message_age", "give_up_after", "with_jitter");
    private static final List<String> NONE = List.of("factory", "give_up_after", "with_jitter");
    private static final List<String> FIXED = List.of("factory", "max_attempts", "delay", "give_up_after",
            "with_jitter");
    private static final List<String> EXPONENTIAL = List.of("factory", "max_attempts", "initial_delay",
            "max_delay", "give_up_after", "with_jitter");

    static RetryPolicy from(Object value) throws ProtocolError {
        if (!(value instanceof Map<?, ?>)) {
            throw ProtocolError.of("policy: must be an object, got " + Fields.quote(value));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> p = (Map<String, Object>) value;
        RetryPolicy policy = base(p);
        Object age = p.get("give_up_after");
        if (age != null) {
            double seconds = Fields.number(age, "policy.give_up_after");
            try {
                policy = policy.giveUpAfter(seconds);
            } catch (RetryPolicyArgumentException e) {
                throw refused("policy.give_up_after", e);
            }
        }
        Object factor = p.get("with_jitter");
        if (factor != null) {
            double f = Fields.number(factor, "policy.with_jitter");
            try {
                policy = policy.withJitter(f);
            } catch (RetryPolicyArgumentException e) {
                throw refused("policy.with_jitter", e);
            }
        }
        return policy;
    }

    /** The port's refusal in the protocol's words: the request's field first. */
    static ProtocolError refused(String path, RetryPolicyArgumentException e) {
        String got = e.rule().contains("NaN") && e.value().equals("NaN") ? "" : ", got " + e.value();
        return ProtocolError.of(path + ": must be " + e.rule() + got);
    }

    private static long maxAttempts(Object v) throws ProtocolError {
        return Fields.integer(v, "policy.max_attempts", Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private static RetryPolicy base(Map<String, Object> p) throws ProtocolError {
        Object factory = p.get("factory");
        if (factory == null) {
            Fields.onlyMembers(p, CONSTRUCTOR, List.of(), "policy.", "a constructor policy");
            RetryPolicy.Builder b = RetryPolicy.builder();
            if (p.containsKey("max_attempts")) {
                b.maxAttempts(maxAttempts(p.get("max_attempts")));
            }
            if (p.containsKey("initial_delay")) {
                b.initialDelay(Fields.number(p.get("initial_delay"), "policy.initial_delay"));
            }
            if (p.containsKey("multiplier")) {
                b.multiplier(Fields.number(p.get("multiplier"), "policy.multiplier"));
            }
            if (p.containsKey("max_delay")) {
                b.maxDelay(Fields.number(p.get("max_delay"), "policy.max_delay"));
            }
            if (p.containsKey("jitter_factor")) {
                b.jitterFactor(Fields.number(p.get("jitter_factor"), "policy.jitter_factor"));
            }
            if (p.containsKey("max_message_age")) {
                b.maxMessageAge(Fields.number(p.get("max_message_age"), "policy.max_message_age"));
            }
            try {
                return b.build();
            } catch (RetryPolicyArgumentException e) {
                throw refused("policy." + e.parameter(), e);
            }
        }
        String name = factory instanceof String text ? text : "";
        switch (name) {
            case "none": {
                Fields.onlyMembers(p, NONE, List.of(), "policy.", "a policy of factory none");
                return RetryPolicy.none();
            }
            case "fixed": {
                Fields.onlyMembers(p, FIXED, List.of(), "policy.", "a policy of factory fixed");
                long n = maxAttempts(Fields.required(p, "max_attempts", "policy.max_attempts"));
                double delay = Fields.number(Fields.required(p, "delay", "policy.delay"), "policy.delay");
                try {
                    return RetryPolicy.fixed(n, delay);
                } catch (RetryPolicyArgumentException e) {
                    // fixed's delay is the constructor's initial_delay.
                    String field = e.parameter().equals("initial_delay") ? "delay" : e.parameter();
                    throw refused("policy." + field, e);
                }
            }
            case "exponential": {
                Fields.onlyMembers(p, EXPONENTIAL, List.of(), "policy.", "a policy of factory exponential");
                long n = maxAttempts(Fields.required(p, "max_attempts", "policy.max_attempts"));
                double initial = Fields.number(Fields.required(p, "initial_delay", "policy.initial_delay"),
                        "policy.initial_delay");
                double cap = p.containsKey("max_delay") ? Fields.number(p.get("max_delay"), "policy.max_delay") : 0.0;
                try {
                    return RetryPolicy.exponential(n, initial, cap);
                } catch (RetryPolicyArgumentException e) {
                    throw refused("policy." + e.parameter(), e);
                }
            }
            default:
                throw ProtocolError.of("policy.factory: must be \"none\", \"fixed\" or \"exponential\", got "
                        + Fields.quote(factory));
        }
    }
}
