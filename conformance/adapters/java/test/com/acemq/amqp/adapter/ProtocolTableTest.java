package com.acemq.amqp.adapter;

import com.acemq.amqp.Tally;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The adapter's limits, ops and members against the protocol's table
 * (conformance/protocol/protocol.json, what {@code retry-policy protocol}
 * prints), read with the adapter's own JSON reader: a limit or member changed
 * there and not here fails now, not at the border case a run of check may or
 * may not send. Prints each check, exits 1 if any fails.
 *
 * <pre>
 * java -cp /tmp/java-build com.acemq.amqp.adapter.ProtocolTableTest [protocol.json, default
 *     conformance/protocol/protocol.json from the repository's root]
 * </pre>
 */
public final class ProtocolTableTest {
    /** The classes that declare the protocol's limits, as MAX_* and SEED_MAX constants. */
    private static final List<Class<?>> LIMIT_HOLDERS = List.of(Adapter.class, Ops.class);

    private static final Tally tally = new Tally();

    private ProtocolTableTest() {
    }

    private static void check(String name, boolean ok, String detail) {
        tally.record(name, ok, ok ? "" : detail);
    }

    private static Map<?, ?> object(Object v) {
        return (Map<?, ?>) v;
    }

    private static List<?> array(Object v) {
        return (List<?>) v;
    }

    /** The adapter's limits by constant name; a MAX_* the table does not have is then an extra. */
    private static Map<String, Long> adapterLimits() throws IllegalAccessException {
        Map<String, Long> limits = new TreeMap<>();
        for (Class<?> holder : LIMIT_HOLDERS) {
            for (Field field : holder.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)
                        && field.getName().matches("MAX_[A-Z_]+|SEED_MAX")) {
                    limits.put(field.getName(), ((Number) field.get(null)).longValue());
                }
            }
        }
        return limits;
    }

    private static void limits(Map<?, ?> table) throws IllegalAccessException {
        Map<String, Long> ours = adapterLimits();
        Set<String> named = new HashSet<>();
        for (Map.Entry<?, ?> limit : object(table.get("limits")).entrySet()) {
            String name = (String) limit.getKey();
            String constant = name.equals("max_seed") ? "SEED_MAX" : name.toUpperCase(java.util.Locale.ROOT);
            named.add(constant);
            long want = Long.parseLong(((Json.Num) object(limit.getValue()).get("value")).text());
            Long got = ours.get(constant);
            check("limit " + name + " is " + want, got != null && got == want,
                    got == null ? "the adapter has no " + constant : "the adapter's " + constant + " is " + got);
        }
        Set<String> extra = new HashSet<>(ours.keySet());
        extra.removeAll(named);
        check("the adapter has no limit the table lacks", extra.isEmpty(), "the adapter's " + extra);
    }

    private static List<String> names(Object members) {
        List<String> names = new ArrayList<>();
        for (Object member : array(members)) {
            names.add((String) object(member).get("name"));
        }
        return names;
    }

    private static void ops(Map<?, ?> table) {
        List<String> order = names(table.get("ops"));
        check("the ops are the table's", Ops.TABLE.keySet().equals(new HashSet<>(order)),
                "the adapter's " + new TreeMap<>(Ops.TABLE).keySet() + ", the table's " + order);
        // Ops.TABLE is a Map.of, unordered; the order the adapter shows is its error's list of ops.
        StringBuilder listed = new StringBuilder();
        for (int k = 0; k < order.size(); k++) {
            listed.append(k == 0 ? "" : k == order.size() - 1 ? " or " : ", ").append('"').append(order.get(k))
                    .append('"');
        }
        check("OP_NAMES lists the table's ops in its order", Ops.OP_NAMES.equals(listed.toString()),
                "the adapter's " + Ops.OP_NAMES + ", the table's " + listed);
        for (Object row : array(table.get("ops"))) {
            String name = (String) object(row).get("name");
            List<String> want = names(object(row).get("members"));
            Ops.Op op = Ops.TABLE.get(name);
            check("op " + name + "'s members are " + want, op != null && op.members().equals(want),
                    op == null ? "the adapter has no op " + name : "the adapter's " + op.members());
        }
        List<?> vectorLine = array(table.get("vector_line_members"));
        check("the vector line members are " + vectorLine, Ops.VECTOR_LINE_MEMBERS.equals(vectorLine),
                "the adapter's " + Ops.VECTOR_LINE_MEMBERS);
    }

    public static void main(String[] args) throws IOException, ProtocolError, IllegalAccessException {
        Path path = Path.of(args.length > 0 ? args[0] : "conformance/protocol/protocol.json");
        byte[] text = Files.readAllBytes(path);
        Map<?, ?> table = object(Json.parse(text, text.length, Json.strictUtf8(), Adapter.MAX_DEPTH));
        System.out.println("table " + path);
        limits(table);
        ops(table);
        tally.finish();
    }
}
