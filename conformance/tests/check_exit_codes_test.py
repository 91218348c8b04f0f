#!/usr/bin/env python3
"""`retry-policy check` exits 2, and says why, when it cannot vouch for an
answer: usage errors, and adapters that cannot start, die, hang, write
garbage, answer the wrong id, or end badly. A good adapter exits 0.

    check_exit_codes_test.py RETRY_POLICY PYTHON ADAPTER_PY WORK_DIR
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from assertions import expect, fail, finish


def check(rp, args, code, says, timeout=120, verdict=None):
    """check's exit code and what it says; with `verdict`, a run that got as
    far as the adapter, whose JSON report (--json) must give that verdict
    and say `says` in its adapter_failure or usage_error."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        report_file = os.path.join(work, "report.json")
        extra = ["--json", report_file] if verdict else []
        try:
            run = subprocess.run([rp, "check", *extra, *args], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            fail(f"{args}: still running after {timeout} s")
            return
        output = run.stdout.decode("utf-8", "replace")
        print(f"--- {args} -> {run.returncode} in {time.monotonic() - started:.1f} s")
        print(output[-1500:])
        expect(run.returncode == code, f"{args}: exit {run.returncode}, expected {code}")
        if not verdict:
            expect(says in output, f"{args}: output does not say {says!r}")
            return
        with open(report_file, encoding="utf-8") as f:
            report = json.load(f)
    why = report["adapter_failure"] or report["usage_error"] or ""
    expect((report["verdict"], report["exit_code"]) == (verdict, code),
           f"{args}: the JSON report says {report['verdict']}, exit {report['exit_code']}; "
           f"expected {verdict}, {code}")
    expect(says in why, f"{args}: the JSON report's failure {why!r} does not say {says!r}")


def main(rp, python, adapter, work):
    good = f"{shlex.quote(python)} {shlex.quote(adapter)}"
    py = shlex.quote(python)
    small = ["--cases", "50", "--no-vectors", "--seed", "7"]

    check(rp, ["--impl", good, *small], 0, "", verdict="agree")
    check(rp, [], 2, "retry-policy check: --impl: required: the command that starts the adapter")
    check(rp, ["--impl", good, "--cases", "-1"], 2, "--cases: must be 0 or more, got -1")
    check(rp, ["--impl", good, "--timeout", "0"], 2, "--timeout")
    # Below 10 ms a healthy adapter would be blamed as hung: refused, with
    # the bound, never rounded down to 0 ms.
    for tiny in ("0.0001", "1e-300"):
        check(rp, ["--impl", good, "--timeout", tiny], 2,
              f"--timeout: must be seconds in [0.01, 86400], got {tiny}")
    check(rp, ["--impl", ""], 2, "--impl: needs a value")
    check(rp, ["--impl", good, "--cases"], 2, "--cases: needs a value")
    # Progress on stderr while it runs, so a slow adapter does not look hung.
    check(rp, ["--impl", good, *small, "--progress-every", "0.001"], 0,
          "requests answered, 0 differ; generated case")
    check(rp, ["--impl", good, "--vectors", "/nonexistent/vectors.jsonl", "--cases", "0"], 2,
          "cannot read vector file", verdict="usage")
    # A usage error is not blamed on the adapter.
    run = subprocess.run([rp, "check", "--impl", good, "--vectors", "/nonexistent/vectors.jsonl"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    expect(b"the adapter failed" not in run.stdout,
           "an unreadable vector file was reported as the adapter's failure")
    # No vectors found beside the executable: an error that says where it
    # looked, never a check that silently sends none.
    alone = os.path.join(work, "bin", "retry-policy")
    os.makedirs(os.path.dirname(alone), exist_ok=True)
    shutil.copy(rp, alone)
    check(alone, ["--impl", good, "--cases", "1"], 2,
          f"no vector files (*.jsonl) are in {os.path.join(work, 'share', 'acemq_retry', 'vectors')}")
    # Exits at once: end of output before any answer.
    check(rp, ["--impl", f"{py} -c 'pass'", *small], 2, "the adapter ", verdict="adapter failed")
    check(rp, ["--impl", "/nonexistent/adapter", *small], 2, "exit status 127",
          verdict="adapter failed")
    # Crashes part-way: answers one line properly (with the real adapter's
    # code), then dies.
    here = shlex.quote(os.path.dirname(os.path.abspath(adapter)))
    check(rp, ["--impl", f"cd {here} && {py} -c 'import sys, adapter\n"
               "line = sys.stdin.buffer.readline().rstrip(b\"\\n\")\n"
               "print(adapter.answer_line(line), flush=True)\nsys.exit(3)'", *small],
          2, "exit status 3", verdict="adapter failed")
    # Hangs: reads and never answers. The timeout must catch it, and fast.
    started = time.monotonic()
    check(rp, ["--impl", "sleep 300", "--timeout", "1", *small], 2, "gave no answer within 1000 ms",
          verdict="adapter failed")
    expect(time.monotonic() - started <= 30, "a hung adapter held check for more than 30 s")
    # Writes something that is not an answer.
    check(rp, ["--impl", f"{py} -c 'import sys\nfor l in sys.stdin: print(\"hello\", flush=True)'",
               *small], 2, "not a protocol answer (not JSON, at byte 1): hello",
          verdict="adapter failed")
    # Answers with the wrong id.
    check(rp, ["--impl", f"{py} -c 'import sys\nfor l in sys.stdin: "
               "print(\"{\\\"id\\\":-5,\\\"ok\\\":false,\\\"error\\\":\\\"x\\\"}\", flush=True)'",
               *small], 2, "answered id -5", verdict="adapter failed")
    # Answers everything, then exits 1 at the end of its input.
    check(rp, ["--impl", f"{good}; exit 1", *small], 2, "exit status 1",
          verdict="adapter failed")
    # The conversation's last request goes without its LF: an adapter that
    # answers only lines that end in one leaves it unanswered.
    check(rp, ["--impl", f"cd {here} && {py} -c 'import sys, adapter\n"
               "for line in sys.stdin.buffer:\n"
               "    if line.endswith(b\"\\n\"):\n"
               "        print(adapter.answer_line(line[:-1]), flush=True)'", *small],
          2, "sent without its LF", verdict="adapter failed")
    # Every 128th case starts a burst of lines in one write: an adapter that
    # answers the first line of a read and drops the rest of it falls silent.
    check(rp, ["--impl", f"cd {here} && {py} -c 'import os, adapter\n"
               "kept = b\"\"\n"
               "while True:\n"
               "    data = os.read(0, 1 << 16)\n"
               "    if not data:\n"
               "        break\n"
               "    kept += data\n"
               "    if b\"\\n\" in kept:\n"
               "        print(adapter.answer_line(kept.split(b\"\\n\")[0]), flush=True)\n"
               "        kept = b\"\"'",
               "--cases", "140", "--no-vectors", "--seed", "7", "--timeout", "5"],
          2, "lines written at once", verdict="adapter failed")

    return finish()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
