#!/usr/bin/env python3
"""`retry-policy stats --impl`: the battery on a port's own default source.

    stats_impl_test.py pass RETRY_POLICY ADAPTER_COMMAND WORK_DIR
        a good port: exit 0, the power table, the report, no seed
    stats_impl_test.py drifted RETRY_POLICY ADAPTER_COMMAND WORK_DIR
        a port with the right arithmetic and a wrong default source: `check`
        exits 0 (it injects r) and `stats --quick` exits 1
    stats_impl_test.py fails RETRY_POLICY PYTHON WORK_DIR
        usage errors and adapters that die, hang or answer garbage: exit 2
    stats_impl_test.py fake MODE
        (used by `fails`) a broken adapter, one MODE a way to break

Every run is `--quick`, the size the README promises fits a port's CI.
"""

import json
import os
import shlex
import subprocess
import sys
import time

failures = []


def run(rp, args, timeout=600):
    started = time.monotonic()
    try:
        done = subprocess.run([rp, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        failures.append(f"{args}: still running after {timeout} s")
        return None, "", ""
    out = done.stdout.decode("utf-8", "replace")
    err = done.stderr.decode("utf-8", "replace")
    print(f"--- retry-policy {' '.join(args)} -> {done.returncode} "
          f"in {time.monotonic() - started:.1f} s")
    print(out[-6000:])
    print(err[-1500:])
    return done.returncode, out, err


def expect(what, condition):
    if not condition:
        failures.append(what)


def stats(rp, adapter, work, code, *extra):
    report = os.path.join(work, "report")
    status, out, err = run(rp, ["stats", "--impl", adapter, "--quick", "--report-dir", report,
                                "--progress-every", "5", *extra])
    expect(f"stats --impl {adapter}: exit {status}, expected {code}", status == code)
    return status, out, err, report


def test_pass(rp, adapter, work):
    status, out, err, report = stats(rp, adapter, work, 0)
    for text in ("PASS: 32 of 32 cells pass at n 524288", "family-wise alpha 1e-06 over 288 tests",
                 "| repeats_2^40 |", "cannot be replayed", "draws/s"):
        expect(f"the output does not say {text!r}", text in out)
    expect("no progress lines on stderr", "[32/32 cells]" in err)
    expect("--quick warns that it cannot see a 32-bit source", "WARNING" not in out)
    summary = os.path.join(report, "summary.md")
    expect("no summary.md", os.path.exists(summary))
    if os.path.exists(summary):
        with open(summary, encoding="utf-8") as f:
            text = f.read()
        expect("the summary does not say the run cannot be replayed", "cannot be replayed" in text)
        expect("the summary shows a seed", "Seed:" not in text)
    results = os.path.join(report, "results.json")
    if os.path.exists(results):
        with open(results, encoding="utf-8") as f:
            data = json.load(f)
        expect("results.json has a seed", data["seed"] is None and data["replay"] is None)
        expect("results.json: not 32 cells", len(data["cells"]) == 32)
        svg = [c["ecdf_svg"] for c in data["cells"]] + [c["histogram_svg"] for c in data["cells"]]
        expect("a picture is missing", all(os.path.exists(os.path.join(report, p)) for p in svg))
    else:
        failures.append("no results.json")


def test_drifted(rp, adapter, work):
    status, out, _ = run(rp, ["check", "--impl", adapter, "--cases", "2000"])
    expect(f"check --impl {adapter}: exit {status}, expected 0 (the arithmetic is right)",
           status == 0)
    _, out, _, _ = stats(rp, adapter, work, 1)
    expect("the output does not say FAIL", "\nFAIL: " in out)


def test_fails(rp, python, work):
    here = os.path.abspath(__file__)
    fake = lambda mode: f"{shlex.quote(python)} {shlex.quote(here)} fake {mode}"
    cases = [
        ("dies", ["--impl", fake("dies")], "ADAPTER FAILED: the adapter closed its output"),
        ("garbage", ["--impl", fake("garbage")], "not a protocol answer"),
        ("no sample op", ["--impl", fake("no-sample")], "does it implement the sample op?"),
        ("too few", ["--impl", fake("short")], "1 draw to a request for 65536"),
        ("null", ["--impl", fake("null")], "answered null (give up)"),
        ("hangs", ["--impl", fake("hangs"), "--timeout", "1"], "gave no answer within 1000 ms"),
        ("bad exit", ["--impl", fake("exit-3"), "--n", "10240"], "ended with exit status 3"),
        ("--quick and --n", ["--impl", "true", "--quick", "--n", "20000"],
         "--quick: cannot be used with --n"),
        ("--n too small", ["--impl", "true", "--n", "100"], "--n: must be in [10240, "),
        ("no --impl", [], "--impl: required"),
    ]
    for name, args, says in cases:
        status, out, err = run(rp, ["stats", "--report-dir", os.path.join(work, "r"), *args],
                               timeout=120)
        expect(f"{name}: exit {status}, expected 2", status == 2)
        expect(f"{name}: the output does not say {says!r}", says in out + err)


# ---- the broken adapters ----------------------------------------------------

def fake(mode):
    for line in sys.stdin:
        request = json.loads(line)
        count = request.get("count", 1)
        numbers = ",".join(["1.0"] * count)
        if mode == "dies":
            sys.exit(1)
        if mode == "hangs":
            time.sleep(3600)
        answer = {
            "garbage": "this is not JSON",
            "no-sample": '{"id":%s,"ok":false,"error":"op: must be \\"schedule\\", '
                         '\\"next_delay\\", \\"jittered\\" or \\"replay\\""}' % request["id"],
            "short": '{"id":%s,"ok":true,"result":[1.0]}' % request["id"],
            "null": '{"id":%s,"ok":true,"result":[null%s]}' % (request["id"], ",1.0" * (count - 1)),
        }.get(mode, '{"id":%s,"ok":true,"result":[%s]}' % (request["id"], numbers))
        print(answer, flush=True)
    if mode == "exit-3":
        sys.exit(3)


def main():
    mode = sys.argv[1]
    if mode == "fake":
        return fake(sys.argv[2])
    rp, work = sys.argv[2], sys.argv[-1]
    os.makedirs(work, exist_ok=True)
    {"pass": test_pass, "drifted": test_drifted, "fails": test_fails}[mode](rp, sys.argv[3], work)
    for failure in failures:
        print("FAIL:", failure)
    print("FAILED" if failures else "PASSED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
