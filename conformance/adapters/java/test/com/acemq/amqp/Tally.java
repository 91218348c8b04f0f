package com.acemq.amqp;

import java.util.ArrayList;
import java.util.List;

/**
 * The port's test programs' one tally. The JDK has no test framework and the
 * port takes no dependency, so each program counts its checks here, names each
 * failure, and ends in one PASS or FAIL line with exit status 1 on a failure,
 * which is all CTest reads.
 */
public final class Tally {
    private int checks;
    private final List<String> failures = new ArrayList<>();

    /** One check, printed "ok" or "FAIL" with its name and, unless empty, {@code line}. */
    public void record(String name, boolean ok, String line) {
        checks++;
        System.out.println((ok ? "ok    " : "FAIL  ") + name + (line.isEmpty() ? "" : ": " + line));
        if (!ok) {
            failures.add(name);
        }
    }

    /** The verdict line, after a blank one; exits 1 when a check failed. */
    public void finish() {
        System.out.println();
        if (failures.isEmpty()) {
            System.out.println("PASS: " + checks + " checks");
            return;
        }
        System.out.println("FAIL: " + failures.size() + " of " + checks + " checks: " + failures);
        System.exit(1);
    }
}
