#!/usr/bin/env python3
"""Mutation analysis of the core: would each suite notice a refactor slip?

Builds the project once against the mutant schemata (the `mutation` preset:
every mutant of the core behind ACEMQ_MUTANT, see schemata.py), then, for
every mutant and every label (unit, properties, stats, conformance), runs
that label's tests with the mutant active until one fails: the kill matrix.
Only the tests that reach a mutant's site (recorded in one traced run of the
unmutated build) can tell it apart, so only those run, the test that killed
it last time first; each test has a timeout derived from its normal time, so
a mutant that hangs a test is killed in seconds.

  scripts/mutate                   # build, analyse, gate (the CI step)
  scripts/mutate --record          # also update mutation/last-run.json and docs/mutation.md
  scripts/mutate --list            # the mutants, from the generated manifest
  scripts/mutate --replay KEY|ID   # one mutant through ctest, every label or --labels
  scripts/mutate --argue KEY WHY   # list a mutant as equivalent, with its argument

Exit status: 0 when the gate holds (harness score >= 98% of non-equivalent
mutants, `ctest -L properties` alone >= 95%, every property rejects the
mutants it lists, no stale equivalent); 1 when it does not; 2 when the
build or the unmutated suites fail.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time

import framework

ROOT = pathlib.Path(__file__).resolve().parent.parent
HERE = ROOT / "mutation"
EQUIVALENTS = HERE / "equivalents.json"
LAST_RUN = HERE / "last-run.json"
REPORT = ROOT / "docs" / "mutation.md"
LABELS = ["unit", "properties", "stats", "conformance"]
# Tests of the other languages' ports (their builds, unit tests, check and
# stats runs): the core is only their `check` oracle, which check.python and
# serve's tests already exercise, and their builds are CTest fixtures, which
# a mutant's run (one test command, no fixtures) cannot set up.
SKIPPED_LABELS = ["ports"]
HARNESS_THRESHOLD = 98.0
PROPERTIES_THRESHOLD = 95.0
# RapidCheck's seed for every property run of the analysis: a fixed seed makes
# the traced run's coverage the coverage of every mutant run.
PROPERTY_SEED = 20261201


def say(*parts):
    print("mutate:", *parts, flush=True)


# ---- the build and its tests ------------------------------------------------------------


def build(build_preset, jobs):
    """Configures the mutation preset and builds `build_preset` of it: `mutation`
    (every target) or `mutation-first` (the unit and property suites alone,
    the core-suites preset's targets, which is all most runs need)."""
    t0 = time.time()
    for command in (["cmake", "--preset", "mutation"],
                    ["cmake", "--build", "--preset", build_preset, "-j", str(jobs)]):
        if subprocess.run(command, cwd=ROOT).returncode != 0:
            return None
    return time.time() - t0


class Test:
    def __init__(self, entry):
        self.name = entry["name"]
        self.command = entry["command"]
        props = {p["name"]: p["value"] for p in entry.get("properties", [])}
        self.labels = props.get("LABELS", [])
        self.cwd = props.get("WORKING_DIRECTORY")
        self.env = dict(e.split("=", 1) for e in props.get("ENVIRONMENT", []))
        self.env_modifications = props.get("ENVIRONMENT_MODIFICATION", [])
        self.will_fail = bool(props.get("WILL_FAIL", False))
        self.seconds = None
        self.reached = {}  # mutant id -> 1 reached, 2 a value there would differ

    def environment(self, mutant=0, trace=None):
        env = dict(os.environ)
        env.update(self.env)
        for modification in self.env_modifications:
            name, rest = modification.split("=", 1)
            op, _, value = rest.partition(":")
            if op in ("set", "reset"):
                env[name] = value
            elif op == "unset":
                env.pop(name, None)
            elif op == "string_append":
                env[name] = env.get(name, "") + value
            elif op == "string_prepend":
                env[name] = value + env.get(name, "")
        env["RC_PARAMS"] = (env.get("RC_PARAMS", "") + f" seed={PROPERTY_SEED}").strip()
        env["ACEMQ_MUTANT"] = str(mutant)
        env.pop("ACEMQ_MUTANT_TRACE", None)
        if trace:
            env["ACEMQ_MUTANT_TRACE"] = trace
        return env


def discover(build_dir, labels):
    out = subprocess.run(["ctest", "--test-dir", str(build_dir), "-N", "--show-only=json-v1"],
                         capture_output=True, text=True, check=True).stdout
    tests = [Test(t) for t in json.loads(out)["tests"] if "command" in t]
    return [t for t in tests if any(label in labels for label in t.labels)
            and not any(label in SKIPPED_LABELS for label in t.labels)]


def limit_memory():
    # A range that never ends appends to a vector at gigabytes a second.
    limit = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run(test, mutant=0, timeout=None, trace=None):
    """(outcome, seconds, output tail): outcome is passed, failed, timeout or crashed."""
    t0 = time.time()
    process = subprocess.Popen(test.command, cwd=test.cwd, env=test.environment(mutant, trace),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True, preexec_fn=limit_memory)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return "timeout", time.time() - t0, ""
    seconds = time.time() - t0
    code = process.returncode
    text = output.decode(errors="replace")[-2000:]
    if code == 97:
        outcome = "crashed"  # the switch refused ACEMQ_MUTANT: never a pass
    elif test.will_fail:
        outcome = "passed" if code != 0 else "failed"
    else:
        outcome = "passed" if code == 0 else ("failed" if 0 < code < 128 else "crashed")
    return outcome, seconds, text


def timeout_for(test):
    # Five times its normal time and two seconds more: a test the loaded
    # machine slows down passes, a test the mutant makes hang is stopped.
    return 5 * test.seconds + 2.0


# ---- the data files ---------------------------------------------------------------------


def load_json(path, default):
    return json.loads(path.read_text()) if path.exists() else default


def load_equivalents():
    return {e["key"]: e for e in framework.read_equivalents(EQUIVALENTS, [])}


def save_equivalents(entries):
    framework.write_equivalents(EQUIVALENTS, list(entries.values()))


def resolve(manifest, wanted):
    for m in manifest["mutants"]:
        if str(m["id"]) == wanted or m["key"] == wanted:
            return m
    return None


# ---- the analysis --------------------------------------------------------------------------


def trace_all(tests, jobs):
    """Runs every test unmutated, tracing which sites it reaches; times it."""
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="acemq-trace-"))
    failures = []

    def one(index_test):
        index, test = index_test
        trace = scratch / str(index)
        trace.mkdir()
        outcome, seconds, text = run(test, 0, timeout=3600, trace=str(trace))
        test.seconds = seconds
        for f in trace.iterdir():
            for line in f.read_text().splitlines():
                site, how = (int(x) for x in line.split())
                test.reached[site] = max(how, test.reached.get(site, 0))
        if outcome != "passed":
            failures.append((test.name, outcome, text))

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, enumerate(tests)))
    return failures


def first_labels(labels, matrix):
    """The labels every mutant runs; the others run only for what these miss."""
    return labels if matrix else [label for label in ("unit", "properties") if label in labels]


def analyse(manifest, tests, labels, equivalents, last, jobs, only, matrix, trace_later):
    """Each mutant against each label. `unit` and `properties` run for every
    mutant (each label alone is exact); the others run only for the mutants
    both missed, in order, until one kills it (the harness's verdict), unless
    `matrix` asks for every label alone. `trace_later()` traces the other
    labels' tests, called only when some mutant needs them."""
    mutants = manifest["mutants"]
    if only:
        pattern = re.compile(only)
        mutants = [m for m in mutants if pattern.search(m["key"]) or pattern.search(str(m["id"]))]
    results = {}
    lock = threading.Lock()
    live = []
    for m in mutants:
        listed = equivalents.get(m["key"])
        results[m["key"]] = {"id": m["id"], "key": m["key"], "labels": {}}
        if listed and listed.get("fingerprint") == m["fingerprint"]:
            results[m["key"]]["status"] = "equivalent"
        else:
            live.append(m)

    def candidates(m, label):
        # A side-effect-free site that never changed a value in a test
        # cannot change that test's run.
        least = 2 if m.get("pure") else 1
        # `tests` may grow once the later labels are built and traced.
        found = [t for t in tests if label in t.labels and t.reached.get(m["id"], 0) >= least]
        previous = last.get(m["key"], {}).get(label)
        found.sort(key=lambda t: (t.name != previous, t.seconds))
        return found

    def one(job):
        m, label = job
        tried = candidates(m, label)
        verdict = {"killed": False, "reached_by": len(tried)}
        started = time.time()
        for test in tried:
            outcome, _, _ = run(test, m["id"], timeout=timeout_for(test))
            if outcome != "passed":
                verdict = {"killed": True, "by": test.name, "how": outcome,
                           "reached_by": len(tried)}
                break
        verdict["seconds"] = round(time.time() - started, 2)
        with lock:
            results[m["key"]]["labels"][label] = verdict
        return verdict["killed"]

    def rest(m):
        for label in later:
            if one((m, label)):
                return

    t0 = time.time()
    first = first_labels(labels, matrix)
    later = [label for label in labels if label not in first]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, [(m, label) for m in live for label in first]))
        missed = [m for m in live
                  if not any(v["killed"] for v in results[m["key"]]["labels"].values())]
        say(f"{len(live)} mutants through {', '.join(first)} in {time.time() - t0:.0f} s; "
            f"{len(missed)} left for {', '.join(later) or 'no other label'}")
        for m in missed:
            say(f"  left: {m['id']} {m['key']}")
        if missed and later:
            trace_later()
        list(pool.map(rest, missed))
    for m in live:
        entry = results[m["key"]]
        killed = any(v["killed"] for v in entry["labels"].values())
        if equivalents.get(m["key"]):
            entry["status"] = "stale equivalent" if killed else "changed equivalent"
        else:
            entry["status"] = "killed" if killed else "survived"
    return [results[m["key"]] for m in mutants], time.time() - t0, first


def test_of_the_test(build_dir, manifest, tests):
    """Each property must fail against each mutant its table row lists."""
    runner = build_dir / "properties" / "property_tests"
    listed = subprocess.run([str(runner), "--acemq_rejections"], capture_output=True, text=True)
    pairs = [line.split("\t") for line in listed.stdout.splitlines() if "\t" in line]
    by_name = {t.name: t for t in tests}
    outcomes = []

    def one(pair):
        prop, key = pair
        test = by_name.get(f"Properties.{prop}")
        mutant = resolve(manifest, key)
        if test is None or mutant is None:
            return (prop, key, "no such " + ("property test" if test is None else "mutant"))
        outcome, _, _ = run(test, mutant["id"], timeout=timeout_for(test) if test.seconds else 60)
        return (prop, key, "rejected" if outcome in ("failed", "timeout", "crashed") else "passed")

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(one, pairs))
    properties = {t.name.split(".", 1)[1] for t in tests
                  if t.name.startswith("Properties.") and "properties" in t.labels}
    unlisted = sorted(p for p in properties if p not in {prop for prop, _ in pairs}
                      and p != "EveryPropertyIsATest")
    return outcomes, unlisted


def suggest(manifest, tests, wanted, jobs, per_property=3):
    """Mutants each property rejects, preferring those few others reach."""
    props = [t for t in tests if t.name.startswith("Properties.")
             and (not wanted or t.name == f"Properties.{wanted}")]
    trace_all(props, jobs)
    reach = collections.Counter()
    for t in props:
        for site, how in t.reached.items():
            reach[site] += how == 2
    for t in props:
        found = []
        ranked = sorted((m for m in manifest["mutants"]
                         if t.reached.get(m["id"], 0) >= (2 if m.get("pure") else 1)),
                        key=lambda m: reach[m["id"]])
        for m in ranked:
            outcome, _, _ = run(t, m["id"], timeout=timeout_for(t))
            if outcome != "passed":
                found.append(m["key"])
                if len(found) == per_property:
                    break
        print(f"{t.name.split('.', 1)[1]}:")
        for key in found:
            print(f'    "{key}",')
    return 0


def slim(result, m):
    """One mutant's record: what the report and the next run's kill order need."""
    out = {k: m[k] for k in ("id", "key", "file", "line", "column", "function", "operator",
                             "change")}
    out["status"] = result["status"]
    out["labels"] = {label: {k: v for k, v in verdict.items() if k in ("killed", "by", "how",
                                                                       "reached_by")}
                     for label, verdict in result["labels"].items()}
    if result["status"] not in ("killed", "equivalent"):
        out.update(original=m["original"], mutated=m["mutated"])
    return out


def scores(results, labels, exact):
    scored = [r for r in results if r["status"] != "equivalent"]
    n = len(scored)
    killed = sum(1 for r in scored if r["status"] in ("killed", "stale equivalent"))
    per_label = {label: sum(1 for r in scored if r["labels"].get(label, {}).get("killed"))
                 for label in labels}
    pct = lambda k: round(100.0 * k / n, 1) if n else 100.0  # noqa: E731
    return {"mutants": len(results), "equivalent": len(results) - n, "scored": n,
            "killed": killed, "score": pct(killed),
            "labels": {label: {"killed": k, "score": pct(k), "alone": label in exact}
                       for label, k in per_label.items()}}


def replay_command(m, label=None):
    only = f" -L {label}" if label else " -L 'unit|properties|stats|conformance'"
    return (f"ACEMQ_MUTANT={m['id']} ctest --test-dir build/mutation{only} --output-on-failure"
            f"   # or: scripts/mutate --replay '{m['key']}'")


def describe(m):
    return (f"{m['file']}:{m['line']}:{m['column']} in {m['function']}\n"
            f"      {m['operator']} {m['change']}: `{m['original'].strip()[:90]}` -> "
            f"`{m['mutated'].strip()[:90]}`")


# ---- main -----------------------------------------------------------------------------------


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="docs/mutation.md: the last run, and every equivalent.")
    p.add_argument("--build-dir", type=pathlib.Path, default=ROOT / "build" / "mutation")
    p.add_argument("--no-build", action="store_true", help="use the build as it is")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--labels", default=",".join(LABELS))
    p.add_argument("--only", metavar="REGEX", help="only mutants whose key or id matches")
    p.add_argument("--list", action="store_true")
    p.add_argument("--matrix", action="store_true",
                   help="every label alone for every mutant (the default runs stats and "
                        "conformance only where unit and properties missed)")
    p.add_argument("--replay", metavar="KEY_OR_ID")
    p.add_argument("--argue", nargs=2, metavar=("KEY", "WHY"))
    p.add_argument("--record", action="store_true",
                   help="write mutation/last-run.json and docs/mutation.md from this run")
    p.add_argument("--report", action="store_true",
                   help="only regenerate docs/mutation.md from mutation/last-run.json")
    p.add_argument("--json", type=pathlib.Path, help="write the full result here too")
    p.add_argument("--suggest-rejections", metavar="PROPERTY", nargs="?", const="",
                   help="for a property (or every one), mutants it rejects, to list in its row "
                        "of properties/<concept>.cc")
    return p.parse_args()


def main():
    args = parse_args()
    labels = [label for label in args.labels.split(",") if label]
    if args.report:
        import report
        report.write(load_json(LAST_RUN, {}), load_equivalents(), REPORT)
        return 0
    manifest_path = args.build_dir / "schemata" / "manifest.json"
    started = time.time()
    build_seconds = None
    # Unit and properties first, alone; the rest of the tree only when a
    # mutant gets past both (see trace_later), or for --matrix and --replay,
    # which run every label.
    built_all = args.matrix or bool(args.replay)
    if not args.no_build and not (args.list or args.argue):
        say(f"building the mutant schemata (cmake --preset mutation, "
            f"{'every target' if built_all else 'the unit and property suites'})")
        build_seconds = build("mutation" if built_all else "mutation-first", args.jobs)
        if build_seconds is None:
            say("the schemata build failed")
            return 2
    built_all = built_all or args.no_build
    if not manifest_path.exists():
        say(f"no {manifest_path}: run cmake --preset mutation first")
        return 2
    manifest = json.loads(manifest_path.read_text())
    if args.list:
        for m in manifest["mutants"]:
            print(f"{m['id']:4}  {m['file']}:{m['line']}:{m['column']}  {m['key']}")
        print(f"{len(manifest['mutants'])} mutants")
        return 0
    if args.argue:
        key, why = args.argue
        m = resolve(manifest, key)
        if m is None:
            say(f"no mutant {key!r}")
            return 2
        entries = load_equivalents()
        entries[m["key"]] = {"key": m["key"], "fingerprint": m["fingerprint"], "why": why}
        save_equivalents(entries)
        say(f"listed {m['key']} as equivalent")
        return 0
    if args.replay:
        m = resolve(manifest, args.replay)
        if m is None:
            say(f"no mutant {args.replay!r}")
            return 2
        print(describe(m), flush=True)
        env = dict(os.environ, ACEMQ_MUTANT=str(m["id"]))
        return subprocess.run(["ctest", "--test-dir", str(args.build_dir), "-L",
                               "|".join(labels), "--output-on-failure", "-j", str(args.jobs)],
                              env=env).returncode

    tests = discover(args.build_dir, labels)
    if args.suggest_rejections is not None:
        return suggest(manifest, tests, args.suggest_rejections, args.jobs)
    # The tests of `unit` and `properties` are traced now; the other labels'
    # only if a mutant gets past both, which on the last run none did: their
    # trace was most of the step's time, spent on tests no mutant reached.
    # (The harness runs every suite unmutated in any case.)
    first = first_labels(labels, args.matrix)
    traced = [t for t in tests if any(label in first for label in t.labels)]
    later = [t for t in tests if t not in traced]
    say(f"{len(manifest['mutants'])} mutants; {len(tests)} tests in {', '.join(labels)}; "
        f"tracing the unmutated run of {len(traced)} in {', '.join(first)}")
    t0 = time.time()
    cpu0 = os.times()
    failures = trace_all(traced, args.jobs)
    trace_seconds = time.time() - t0
    if failures:
        for name, outcome, text in failures:
            say(f"the unmutated build fails {name} ({outcome}):\n{text}")
        return 2
    say(f"traced in {trace_seconds:.0f} s")

    class UnmutatedFailure(Exception):
        pass

    def trace_later():
        nonlocal trace_seconds, build_seconds
        t1 = time.time()
        if not built_all:
            say("building the rest of the tree, for the mutants both labels missed")
            seconds = build("mutation", args.jobs)
            if seconds is None:
                raise UnmutatedFailure()
            build_seconds = (build_seconds or 0) + seconds
            # gtest lists a suite's tests when it is built: ask ctest again.
            traced_names = {t.name for t in traced}
            later[:] = [t for t in discover(args.build_dir, labels) if t.name not in traced_names]
            tests[:] = traced + later
        say(f"tracing the other {len(later)} tests, for the mutants both labels missed")
        failed = trace_all(later, args.jobs)
        trace_seconds += time.time() - t1
        if failed:
            for name, outcome, text in failed:
                say(f"the unmutated build fails {name} ({outcome}):\n{text}")
            raise UnmutatedFailure()
    equivalents = load_equivalents()
    last = {r["key"]: {label: v["by"] for label, v in r["labels"].items() if v.get("killed")}
            for r in load_json(LAST_RUN, {}).get("results", [])}
    try:
        results, mutant_seconds, exact = analyse(manifest, tests, labels, equivalents, last,
                                                 args.jobs, args.only, args.matrix, trace_later)
    except UnmutatedFailure:
        return 2
    pairs, unlisted = test_of_the_test(args.build_dir, manifest, tests)
    cpu1 = os.times()
    cpu = (cpu1.children_user + cpu1.children_system) - (cpu0.children_user + cpu0.children_system)
    summary = scores(results, labels, exact)
    by_key = {m["key"]: m for m in manifest["mutants"]}
    known = set(by_key)
    orphans = sorted(k for k in equivalents if k not in known)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    run_record = {
        "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                 capture_output=True, text=True).stdout.strip()
        + (" with uncommitted changes" if dirty else ""),
        "labels": labels,
        "tests": {label: sum(1 for t in tests if label in t.labels) for label in labels},
        "seconds": {"build": round(build_seconds, 1) if build_seconds else None,
                    "trace": round(trace_seconds, 1), "mutants": round(mutant_seconds, 1),
                    "total": round(time.time() - started, 1), "cpu_tests": round(cpu, 1)},
        "load": os.getloadavg(),
        "summary": summary,
        "operators": manifest["operators"],
        "results": [slim(r, by_key[r["key"]]) for r in results],
        "test_of_the_test": [{"property": p, "key": k, "outcome": o} for p, k, o in pairs],
        "unlisted_properties": unlisted,
        "kill_order": {r["key"]: {label: v["by"] for label, v in r["labels"].items()
                                  if v.get("killed")} for r in results},
    }
    if args.json:
        args.json.write_text(json.dumps(run_record, indent=1) + "\n")
    (args.build_dir / "mutation-run.json").write_text(json.dumps(run_record, indent=1) + "\n")

    # ---- the verdict
    print()
    problems = []
    for r in results:
        m = by_key[r["key"]]
        if r["status"] in ("survived", "changed equivalent"):
            note = (" (listed as equivalent, but its function changed since it was argued: "
                    "re-read the argument, then scripts/mutate --argue)"
                    if r["status"] == "changed equivalent" else "")
            print(f"SURVIVED{note}: {m['key']}\n      {describe(m)}\n      replay: "
                  f"{replay_command(m)}")
        elif r["status"] == "stale equivalent":
            problems.append(f"{m['key']} is listed as equivalent but was killed by "
                            + ", ".join(f"{label} ({v['by']})" for label, v in r["labels"].items()
                                        if v.get("killed")))
    for p, k, o in pairs:
        if o != "rejected":
            problems.append(f"property {p} did not reject {k}: {o}")
    for p in unlisted:
        problems.append(f"property {p} lists no mutant it rejects (its row in properties/<concept>.cc)")
    for k in orphans:
        problems.append(f"mutation/equivalents.json lists {k!r}, which is no mutant now")
    props = summary["labels"].get("properties", {}).get("score", 0.0)
    print(f"\nmutate: {summary['mutants']} mutants, {summary['equivalent']} equivalent, "
          f"{summary['killed']} of {summary['scored']} killed: harness score {summary['score']}%")
    for label in labels:
        s = summary["labels"][label]
        if s["alone"]:
            print(f"  {label:<12} alone kills {s['killed']:4} ({s['score']}%)")
        else:
            print(f"  {label:<12} kills {s['killed']:4} of those unit and properties missed "
                  f"(scripts/mutate --matrix for its score alone)")
    print(f"  test of the test: {sum(1 for *_, o in pairs if o == 'rejected')} of {len(pairs)} "
          f"(property, mutant) rejections seen")
    print(f"  time: build {run_record['seconds']['build']} s, trace {trace_seconds:.0f} s, "
          f"mutants {mutant_seconds:.0f} s, total {run_record['seconds']['total']:.0f} s wall; "
          f"{cpu:.0f} s CPU in tests; load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if summary["score"] < HARNESS_THRESHOLD:
        problems.append(f"harness score {summary['score']}% < {HARNESS_THRESHOLD}%")
    if "properties" in labels and props < PROPERTIES_THRESHOLD:
        problems.append(f"ctest -L properties alone {props}% < {PROPERTIES_THRESHOLD}%")
    if args.record:
        import report
        record = dict(run_record)
        del record["kill_order"]  # the results hold it
        results_text = ",\n".join(json.dumps(r, ensure_ascii=False) for r in record.pop("results"))
        head = json.dumps(record, indent=1, ensure_ascii=False)
        LAST_RUN.write_text(head[:-2] + ',\n "results": [\n' + results_text + "\n ]\n}\n")
        report.write(run_record, equivalents, REPORT)
        say(f"wrote {LAST_RUN.relative_to(ROOT)} and {REPORT.relative_to(ROOT)}")
    for p in problems:
        print(f"GATE: {p}")
    print("mutate: gate " + ("FAILED" if problems else "passed"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.exit(main())
