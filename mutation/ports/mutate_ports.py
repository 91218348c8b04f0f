#!/usr/bin/env python3
"""Mutation analysis of the ports `retry-policy check` judges: would check
notice a port's slip?

For the Python and Go ports, the port's own parser writes its mutant
schemata: a copy of the port in which every mutant sits behind
ACEMQ_MUTANT, chosen at run time (python_schemata.py, go/). One traced run
of `check` against the unmutated copy records, through proxy.py, every
answer and which request lines reach which mutant's switch. Then each
mutant meets `check` with the same seed and cases, its adapter computing
only the lines that reach its site and the proxy answering the rest as the
original did. The Java and .NET ports are mutated on their text instead
(text_mutants.py): each mutant is a copy of the port with one change,
compiled on its own (a mutant the compiler refuses is dropped and
counted), then run through the same `check`. Either way the verdict is
check's own: exit 1 (an answer differs) or 2 (the adapter died, hung or
wrote a non-answer) kills it, exit 0 lets it survive.

  scripts/mutate-ports                       # every port, every mutant, the gate
  scripts/mutate-ports --sample 40           # the CI gate: Python's and Go's cost limit and 40 more
  scripts/mutate-ports --port java --record  # also mutation/ports/last-run.json, docs/mutation-ports.md
  scripts/mutate-ports --port go --list      # the mutants: id, key
  scripts/mutate-ports --port go --replay KEY  # one mutant through check, its report shown
  scripts/mutate-ports --port go --argue KEY WHY  # list a survivor as equivalent
  scripts/mutate-ports --port go --argue 'FILE | FUNCTION' WHY  # every mutant of a function
  scripts/mutate-ports --check-seed N --report-only  # the nightly: another seed, scores and new survivors

Exit status: 0 when check kills at least 98% of the non-equivalent mutants
of every port analysed and no equivalent is stale (always, with
--report-only); 1 when not; 2 when a schemata or an unmutated port will
not build, or the unmutated port does not agree.
"""
import argparse
import collections
import concurrent.futures
import dataclasses
import hashlib
import json
import os
import pathlib
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import report
import text_mutants

# The parts every mutation analysis here shares (mutation/framework.py).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import framework  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = ROOT / "mutation" / "ports"
EQUIVALENTS = HERE / "equivalents.json"
LAST_RUN = HERE / "last-run.json"
REPORT = ROOT / "docs" / "mutation-ports.md"
THRESHOLD = 98.0
# check's seed and cases for every run of the analysis: a fixed seed makes
# the traced run's lines the lines of every mutant run.
CHECK_SEED = 20261202
CHECK_CASES = 5000
# The CI gate's sample is drawn with this seed, so it is the same sample on
# every run until the mutants themselves change.
SAMPLE_SEED = 22
# A text mutant's check gets this long in all (each answer has check's own
# 10 s): a run past it is a mutant that hangs, killed, and counted apart.
TEXT_MUTANT_TIMEOUT = 120
BUILD_TIMEOUT = 600


def fail(message):
    """A failure of the analysis itself, not a verdict on a port: exit 2."""
    print(f"mutate-ports: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def say(*parts):
    print("mutate-ports:", *parts, flush=True)


def in_go_environment(work, *argv):
    """argv run by scripts/go-env, the Go environment every build here
    shares (offline, no VCS stamp), with its caches under `work`."""
    return [str(ROOT / "scripts" / "go-env"), str(work / "go-caches"), *argv]


@dataclasses.dataclass(frozen=True)
class Port:
    name: str
    source: str          # the port, from the repository's root
    needs: tuple         # programs it needs on PATH
    # Schemata ports: (schemata dir, work dir) -> (argv, cwd, env).
    generate: object
    adapter: object      # schemata or build dir -> argv of its adapter
    # `file | function` of the code where ports disagree on which calls are
    # answered (the cost limit, giving up, the walk's exits): every sample
    # the gate draws holds all their mutants, so a generator that stops
    # reaching the cost limit's edges fails the gate, not only by chance.
    focus: tuple = ()
    # Text ports (generate None): (copy of the port, build dir) -> the argv
    # that compiles it.
    build: object = None
    # Whether CI's sample gate (--sample with no --port) runs it: a text
    # mutant costs a compilation, which CI's time has no room for.
    gated: bool = True
    # A compiler kept running that takes build's argv as one line and answers
    # with one (JavacLoop.java): a fresh javac costs three times the CPU.
    compiler_loop: tuple = ()


class CompilerLoop:
    """One warm compiler for one worker thread: a line of tab-separated
    arguments in, a line of exit status, tab, diagnostics (\\n for newlines)
    out. Started again if it dies."""

    def __init__(self, argv):
        self.argv = argv
        self.proc = None

    def compile(self, args):
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True)
        self.proc.stdin.write("\t".join(args) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.proc = None
            return False, "the compiler loop died"
        status, _, text = line.rstrip("\n").partition("\t")
        text = re.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], text)
        return status == "0", text


# Debian's python3 where there is one: each mutant starts Python twice (the
# proxy and the adapter), in 16 ms, where pyenv's interpreter takes 62.
PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable

PORTS = [
    Port("python", "conformance/adapters/python", ("python3",),
         lambda out, work: ([PYTHON, str(HERE / "python_schemata.py"),
                             "--src", str(ROOT / "conformance/adapters/python"),
                             "--out", str(out)], ROOT, None),
         lambda out: [PYTHON, str(out / "adapter.py")],
         ("adapter.py | within_cost_limit", "adapter.py | gives_up")),
    Port("go", "conformance/adapters/go", ("go",),
         lambda out, work: (in_go_environment(work, "go", "run", ".", "--src",
                                              str(ROOT / "conformance/adapters/go"),
                                              "--out", str(out)), HERE / "go", None),
         lambda out: [str(out / "retrypolicy-adapter")],
         ("cmd/retrypolicy-adapter/protocol.go | withinCostLimit",
          "retrypolicy.go | RetryPolicy.Walk", "retrypolicy.go | RetryPolicy.GivesUp")),
    # javac's arguments go to JavacLoop, one warm compiler a worker.
    Port("java", "conformance/adapters/java", ("javac", "java"), None,
         # The JVM's own log to stderr, off the protocol's stdout
         # (conformance/CMakeLists.txt, ACEMQ_JAVA_OPTIONS).
         lambda out: ["java", "-XX:-UsePerfData", "-Xlog:disable", "-Xlog:all=warning:stderr",
                      "-cp", str(out), "com.acemq.amqp.adapter.Adapter"],
         ("adapter/Ops.java | Ops.withinCostLimit", "RetryPolicy.java | RetryPolicy.runningValue",
          "RetryPolicy.java | RetryPolicy.givesUp"),
         build=lambda tree, out: (["-d", str(out)]
                                  + sorted(str(p) for p in (tree / "src").rglob("*.java"))),
         compiler_loop=("java", "-XX:+UseSerialGC", str(HERE / "JavacLoop.java")),
         gated=False),
    Port("dotnet", "conformance/adapters/dotnet", ("mcs", "mono"), None,
         lambda out: ["mono", str(out / "RetryPolicyAdapter.exe")],
         ("adapter/Protocol.cs | Protocol.WithinCostLimit", "src/RetryPolicy.cs | RetryPolicy.Walk",
          "src/RetryPolicy.cs | RetryPolicy.GivesUp"),
         build=lambda tree, out: ["sh", str(tree / "build.sh"), str(out), "adapter"],
         gated=False),
]
PORTS_BY_NAME = {p.name: p for p in PORTS}


# ---- Schemata, the traced run ---------------------------------------------

def port_environment(**extra):
    """The environment a port's adapter runs in, as its users run it:
    without PYTHONUNBUFFERED, which would hide a Python adapter that forgets
    to flush its answer (a shell or CI may set it)."""
    env = dict(os.environ, **extra)
    env.pop("PYTHONUNBUFFERED", None)
    return env


def build_schemata(port, build):
    out = build / port.name / "schemata"
    work = build / port.name
    if out.exists():
        shutil.rmtree(out)
    work.mkdir(parents=True, exist_ok=True)
    argv, cwd, env = port.generate(out, work)
    say(f"{port.name}: writing the schemata ({' '.join(argv[:2])} ...)")
    done = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.stdout.write(done.stdout)
        fail(f"{port.name}: the schemata did not build")
    for line in done.stdout.strip().splitlines()[-3:]:
        say(f"{port.name}:   {line}")
    manifest = json.loads((out / "manifest.json").read_text())
    return out, manifest["mutants"]


def check_argv(rp, impl, seed, cases):
    # The generated cases alone, not the vector files: the analysis guards
    # the generator, and a vector that pins a slip would hide a generator
    # that no longer reaches it. A user's check, vectors and all, kills at
    # least what this one does.
    return [str(rp), "check", "--impl", impl, "--seed", str(seed), "--cases", str(cases),
            "--no-vectors", "--show", "0", "--fail-fast", "--progress-every", "3600"]


def run_group(argv, env=None, timeout=None):
    """Runs argv in a session of its own, so that a mutant adapter that hangs
    is killed with everything it started; (exit code or None, seconds, output)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=timeout)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        code = None
        output = b""
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if proc.poll() is None:
            proc.wait()
    return code, time.monotonic() - start, output.decode("utf-8", "replace")


def traced_run(port, schemata, rp, work, seed, cases):
    """check against the unmutated schemata, recording the answers and, for
    each mutant, the request lines that reach it: {id: set of lines} and
    the set of ids reached before the first line (which every line meets)."""
    trace = work / "trace.txt"
    answers = work / "answers.txt"
    for f in (trace, answers):
        f.unlink(missing_ok=True)
    proxy = [PYTHON, str(HERE / "proxy.py"), "--record", str(answers), "--"]
    impl = shlex.join(proxy + port.adapter(schemata))
    env = port_environment(ACEMQ_MUTANT_TRACE=str(trace))
    env.pop("ACEMQ_MUTANT", None)
    code, seconds, output = run_group(check_argv(rp, impl, seed, cases), env=env)
    if code != 0:
        sys.stdout.write(output[-3000:])
        fail(f"{port.name}: the unmutated schemata does not agree with the core (exit {code})")
    lines = answers.read_bytes().count(b"\n")
    reached = collections.defaultdict(set)
    everywhere = set()
    segment = -1
    for token in trace.read_text().split():
        if token == "L":
            segment += 1
        elif segment < 0:
            everywhere.add(int(token))
        else:
            # A segment runs from one line's marker to the next: the line,
            # and the reading of the next one where the loop reads ahead.
            reached[int(token)].update((segment, segment + 1))
    if segment + 1 not in (lines, lines + 1):
        fail(f"{port.name}: the trace has {segment + 1} line markers for {lines} answers: the "
             "request loop is not where the schemata marks it")
    say(f"{port.name}: traced run: {lines} lines, {len(reached) + len(everywhere)} mutants "
        f"reached, {seconds:.1f} s")
    return answers, seconds, reached, everywhere, lines


# ---- One mutant ------------------------------------------------------------

def run_mutant(port, schemata, rp, work, answers, traced_seconds, mutant, lines, seed, cases):
    """check's verdict on one mutant: (verdict, detail, seconds)."""
    if not lines:
        return "not reached", "no request line evaluates its switch", 0.0
    keep = work / f"keep-{mutant['id']}.txt"
    keep.write_text("\n".join(str(n) for n in sorted(lines)) + "\n")
    adapter = ["env", f"ACEMQ_MUTANT={mutant['id']}"] + port.adapter(schemata)
    proxy = [PYTHON, str(HERE / "proxy.py"), "--replay", str(answers), "--keep", str(keep), "--"]
    impl = shlex.join(proxy + adapter)
    env = port_environment()
    env.pop("ACEMQ_MUTANT_TRACE", None)
    # check stops an answer after 10 s, so a mutant that hangs is seen; the
    # whole run gets that much beyond the unmutated run's time, twice over.
    code, seconds, output = run_group(check_argv(rp, impl, seed, cases), env=env,
                                      timeout=2 * traced_seconds + 30)
    keep.unlink(missing_ok=True)
    return verdict_of(code, output, seconds, "timeout: the run did not finish")


def verdict_of(code, output, seconds, timeout_detail):
    """check's exit status as a mutant's verdict: (verdict, detail, seconds)."""
    last = output.strip().splitlines()[-1] if output.strip() else ""
    if code is None:
        return "killed", timeout_detail, seconds
    if code == 0:
        return "survived", "every answer agrees", seconds
    if code == 1:
        return "killed", "an answer differs", seconds
    if code == 2:
        return "killed", "the adapter broke: " + last[:160], seconds
    return "killed", f"check exited {code}: " + last[:160], seconds



class SchemataRun:
    """A Python or Go port: its schemata, built once, and each mutant behind
    its switch, meeting only the lines the traced run saw reach it."""

    def __init__(self, port, build_dir):
        self.port = port
        self.work = build_dir / port.name
        self.schemata, self.mutants = build_schemata(port, build_dir)

    def prepare(self, rp, seed, cases):
        (self.answers, self.seconds, self.reached, self.everywhere,
         line_count) = traced_run(self.port, self.schemata, rp, self.work, seed, cases)
        self.all_lines = set(range(line_count))
        return self.seconds

    def run(self, m, rp, seed, cases):
        lines = self.all_lines if m["id"] in self.everywhere else self.reached.get(m["id"], set())
        return run_mutant(self.port, self.schemata, rp, self.work, self.answers, self.seconds, m,
                          lines, seed, cases)

    def replay(self, m, rp, argv_for):
        impl = shlex.join(["env", f"ACEMQ_MUTANT={m['id']}"] + self.port.adapter(self.schemata))
        return argv_for(impl)


class TextRun:
    """A Java or .NET port: a snapshot of it taken at the start (so that an
    edit during the run changes nothing), its text mutants, and each mutant
    as a copy of the snapshot with one change, compiled and run alone."""

    def __init__(self, port, build_dir, work=None):
        self.port = port
        self.loops = threading.local()
        self.work = work or build_dir / port.name
        self.snapshot = self.work / "port"
        if self.work.exists():
            shutil.rmtree(self.work)
        self.work.mkdir(parents=True)
        shutil.copytree(ROOT / port.source, self.snapshot)
        self.mutants = text_mutants.generate(port.name, folder=self.snapshot)
        say(f"{port.name}: {len(self.mutants)} text mutants of {port.source} "
            "(mutation/ports/text_mutants.py)")

    @staticmethod
    def listed(port):
        """The mutants alone, from the port as it is (--list, --argue): no
        copy, so that an analysis running in the build folder is left alone."""
        run = TextRun.__new__(TextRun)
        run.port = port
        run.mutants = text_mutants.generate(port.name)
        return run

    def build(self, tree, out):
        """(whether it compiled, the compiler's output)."""
        out.mkdir(parents=True, exist_ok=True)
        if self.port.compiler_loop:
            if not hasattr(self.loops, "loop"):
                self.loops.loop = CompilerLoop(list(self.port.compiler_loop))
            return self.loops.loop.compile(self.port.build(tree, out))
        try:
            done = subprocess.run(self.port.build(tree, out), stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=BUILD_TIMEOUT)
        except subprocess.TimeoutExpired:
            return False, f"the build took more than {BUILD_TIMEOUT} s"
        return done.returncode == 0, done.stdout

    def prepare(self, rp, seed, cases):
        out = self.work / "unmutated"
        start = time.monotonic()
        built, output = self.build(self.snapshot, out)
        if not built:
            sys.stdout.write(output[-3000:])
            fail(f"{self.port.name}: the unmutated port does not build")
        impl = shlex.join(self.port.adapter(out))
        code, seconds, output = run_group(check_argv(rp, impl, seed, cases),
                                          env=port_environment(), timeout=TEXT_MUTANT_TIMEOUT)
        if code != 0:
            sys.stdout.write(output[-3000:])
            fail(f"{self.port.name}: the unmutated port does not agree with the core "
                 f"(exit {code})")
        say(f"{self.port.name}: the unmutated port built and agrees: "
            f"{time.monotonic() - start:.1f} s, check {seconds:.1f} s")
        return time.monotonic() - start

    def mutated_copy(self, m, where):
        tree = where / "port"
        shutil.copytree(self.snapshot, tree)
        path = tree / m["path"]
        path.write_text(text_mutants.apply(path.read_text(), m))
        return tree

    def run(self, m, rp, seed, cases):
        where = self.work / f"mutant-{m['id']}"
        shutil.rmtree(where, ignore_errors=True)
        try:
            start = time.monotonic()
            built, output = self.build(self.mutated_copy(m, where), where / "out")
            if not built:
                return ("not compiled", "the compiler refuses it: " + compile_error(output),
                        time.monotonic() - start)
            impl = shlex.join(self.port.adapter(where / "out"))
            code, _, output = run_group(check_argv(rp, impl, seed, cases),
                                        env=port_environment(), timeout=TEXT_MUTANT_TIMEOUT)
            seconds = time.monotonic() - start
        finally:
            shutil.rmtree(where, ignore_errors=True)
        return verdict_of(code, output, seconds,
                          f"timeout: the run did not finish in {TEXT_MUTANT_TIMEOUT} s")

    def replay(self, m, rp, argv_for):
        where = self.work / "replay"
        built, output = self.build(self.mutated_copy(m, where), where / "out")
        if not built:
            sys.stdout.write(output)
            say(f"{self.port.name}: mutant {m['id']} does not compile")
            return None
        return argv_for(shlex.join(self.port.adapter(where / "out")))


def compile_error(output):
    """The compiler's first error line, for the record."""
    lines = [line.strip() for line in output.splitlines() if "error" in line.lower()]
    lines = lines or output.strip().splitlines()[-1:] or ["?"]
    return lines[0][:200]


# ---- Equivalents -----------------------------------------------------------

def load_equivalents():
    return framework.read_equivalents(EQUIVALENTS, {})


def function_of(mutant):
    return f"{mutant['file']} | {mutant['function']}"


def equivalent_entry(equivalents, port, mutant):
    """The entry arguing `mutant` equivalent: its own (keyed by the mutant's
    key), or its function's (keyed by `file | function`: every mutant there,
    for a function whose every effect is one check does not compare, such as
    an error message's wording), or None."""
    for entry in equivalents.get(port, []):
        if entry["key"] in (mutant["key"], function_of(mutant)):
            return entry
    return None


def argue(port, mutants, key, why, judged_by=None):
    equivalents = load_equivalents()
    matches = [m for m in mutants if m["key"] == key or str(m["id"]) == key]
    whole = [m for m in mutants if function_of(m) == key]
    if len(matches) != 1 and not whole:
        raise SystemExit(f"mutate-ports: {port}: {key!r} is no one mutant and no function")
    m = matches[0] if len(matches) == 1 else whole[0]
    key = m["key"] if len(matches) == 1 else key
    change = (f"{m['original']} -> {m['mutant']}" if len(matches) == 1
              else "the function's one mutant" if len(whole) == 1
              else f"all {len(whole)} mutants of the function")
    entries = [e for e in equivalents.get(port, []) if e["key"] != key]
    entry = {"key": key, "fingerprint": m["fingerprint"], "change": change, "why": why}
    if judged_by:
        entry["judged_by"] = judged_by
    entries.append(entry)
    equivalents[port] = entries
    framework.write_equivalents(EQUIVALENTS, equivalents)
    say(f"{port}: {key} listed as equivalent")


# ---- The analysis ------------------------------------------------------------

def analyse(port, args, rp):
    if port.build is None:
        run = SchemataRun(port, args.build_dir)
    elif args.list or args.argue:
        run = TextRun.listed(port)
    elif args.replay:
        # A folder of its own: an analysis may be running in the port's.
        run = TextRun(port, args.build_dir, pathlib.Path(tempfile.mkdtemp(
            prefix=f"{port.name}-replay-", dir=args.build_dir)))
    else:
        run = TextRun(port, args.build_dir)
    mutants = run.mutants
    if args.list:
        for m in mutants:
            print(f"{m['id']:5}  {m['key']}\n       {m['original']}  ->  {m['mutant']}")
        return None
    if args.argue:
        argue(port.name, mutants, *args.argue, judged_by=args.judged_by)
        return None
    if args.replay:
        matches = [m for m in mutants if m["key"] == args.replay or str(m["id"]) == args.replay]
        if len(matches) != 1:
            raise SystemExit(f"mutate-ports: {port.name}: no one mutant is {args.replay!r}")
        m = matches[0]
        say(f"{port.name}: mutant {m['id']}: {m['key']}\n    {m['original']}  ->  {m['mutant']}")

        def argv_for(impl):
            argv = check_argv(rp, impl, args.seed, args.cases)
            argv[argv.index("--show") + 1] = "3"
            return argv
        argv = run.replay(m, rp, argv_for)
        try:
            if argv is None:
                return 1
            say("$ " + shlex.join(argv))
            return subprocess.call(argv)
        finally:
            if port.build is not None:
                shutil.rmtree(run.work, ignore_errors=True)

    equivalents = load_equivalents()
    prepare_seconds = run.prepare(rp, args.seed, args.cases)

    chosen = [m for m in mutants if not args.only or args.only in m["key"]]
    argued = {m["id"]: equivalent_entry(equivalents, port.name, m) for m in chosen}
    fresh = {i: e for i, e in argued.items() if e and e["fingerprint"] == next(
        m for m in chosen if m["id"] == i)["fingerprint"]}
    if args.sample:
        candidates = sorted((m for m in chosen if m["id"] not in fresh), key=lambda m: m["key"])
        focused = [m for m in candidates if function_of(m) in port.focus]
        rest = [m for m in candidates if function_of(m) not in port.focus]
        chosen = focused + random.Random(args.sample_seed).sample(rest, min(args.sample, len(rest)))
        chosen.sort(key=lambda m: m["id"])
    to_run = [m for m in chosen if m["id"] not in fresh or args.check_equivalents]
    say(f"{port.name}: {len(mutants)} mutants, {len(chosen)} analysed"
        + (f" (the cost limit's code, and a sample drawn with seed {args.sample_seed})"
           if args.sample else "")
        + f", {sum(1 for m in chosen if m['id'] in fresh)} argued equivalent, "
        f"{len(to_run)} to run, {args.jobs} at a time")

    results = {}
    journal = Journal(args.build_dir / f"{port.name}-results.jsonl",
                      {"seed": args.seed, "cases": args.cases, "retry_policy": digest(rp),
                       "port": tree_digest(run.snapshot if port.build else ROOT / port.source)},
                      args.resume)
    # A resumed run's time counts the results it takes as the checks cost
    # them, over the jobs, so that a record says what the analysis costs.
    resumed_seconds = 0.0
    for m in list(to_run):
        earlier = journal.result(m)
        if earlier is not None:
            results[m["id"]] = earlier
            resumed_seconds += earlier[2] / args.jobs
            to_run.remove(m)
    if args.resume:
        say(f"{port.name}: {len(results)} results taken from {journal.path.name}, "
            f"{len(to_run)} to run")
    start = time.monotonic()

    def one(m):
        result = run.run(m, rp, args.seed, args.cases)
        journal.add(m, result)
        return m["id"], result

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for done, (mid, result) in enumerate(pool.map(one, to_run), 1):
            results[mid] = result
            if done % 25 == 0 or done == len(to_run):
                say(f"{port.name}: {done}/{len(to_run)} run, "
                    f"{sum(1 for r in results.values() if r[0] == 'survived')} survived, "
                    f"{sum(1 for r in results.values() if r[0] == 'not compiled')} did not "
                    f"compile, {time.monotonic() - start:.0f} s")

    rows = []
    for m in chosen:
        entry = argued[m["id"]]
        verdict, detail, seconds = results.get(m["id"], ("equivalent", entry and entry["why"], 0.0))
        if entry and m["id"] in fresh:
            if verdict == "killed" and not entry.get("judged_by"):
                verdict, detail = "stale", "argued equivalent, but killed: " + detail
            elif entry.get("judged_by"):
                verdict, detail = "out of scope", f"{entry['judged_by']}'s: {entry['why']}"
            elif verdict != "not compiled":
                verdict, detail = "equivalent", entry["why"]
        elif entry and verdict not in ("killed", "not compiled"):
            verdict, detail = "stale", "argued equivalent, but its function changed: re-argue"
        row = {k: v for k, v in m.items() if k not in TEXT_ONLY_FIELDS}
        rows.append(dict(row, verdict=verdict, detail=detail, seconds=round(seconds, 2)))
    return summarise(port, rows, time.monotonic() - start + prepare_seconds + resumed_seconds,
                     args)


def digest(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def tree_digest(folder):
    h = hashlib.sha256()
    for path in sorted(p for p in pathlib.Path(folder).rglob("*") if p.is_file()):
        h.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


class Journal:
    """Each mutant's verdict as it comes, one JSON line each, so that an
    analysis stopped half-way (hours, for Java or .NET) goes on with
    --resume: a result counts again only for the same mutant of the same
    port, check binary, seed and cases."""

    def __init__(self, path, context, resume):
        self.path = path
        self.context = context
        self.lock = threading.Lock()
        self.earlier = {}
        if resume and path.exists():
            for line in path.read_text().splitlines():
                try:
                    e = json.loads(line)
                except ValueError:
                    continue  # a line cut short when the run stopped
                if e.get("context") == context:
                    self.earlier[(e["key"], e["mutant"])] = tuple(e["result"])
        path.write_text("".join(json.dumps({"context": context, "key": k[0], "mutant": k[1],
                                            "result": list(v)}) + "\n"
                                for k, v in self.earlier.items()))

    def result(self, m):
        return self.earlier.get((m["key"], m["mutant"]))

    def add(self, m, result):
        line = json.dumps({"context": self.context, "key": m["key"], "mutant": m["mutant"],
                           "result": list(result)}) + "\n"
        with self.lock, open(self.path, "a") as out:
            out.write(line)


# What a text mutant carries to be applied, not to be read.
TEXT_ONLY_FIELDS = ("path", "start", "end", "replacement")
MISSED = report.MISSED


def summarise(port, rows, seconds, args):
    counts = collections.Counter(r["verdict"] for r in rows)
    killed = counts["killed"]
    equivalent = counts["equivalent"]
    missed = counts["survived"] + counts["not reached"]
    judged = killed + missed + counts["stale"]
    hung = sum(1 for r in rows if r["verdict"] == "killed" and r["detail"].startswith("timeout"))
    score = 100.0 * killed / judged if judged else 100.0
    say(f"{port.name}: {len(rows)} mutants: {killed} killed ({hung} by hanging), "
        f"{equivalent} equivalent, {counts['out of scope']} out of check's scope, "
        f"{counts['not compiled']} did not compile, {missed} missed, {counts['stale']} stale: "
        f"{report.score_text({'killed': killed, 'missed': missed, 'stale': counts['stale']})} "
        f"of the non-equivalent killed ({seconds:.0f} s)")
    for r in rows:
        if r["verdict"] in MISSED:
            say(f"  {r['verdict'].upper()}  [{r['id']}] {r['key']}\n"
                f"      {r['original']}  ->  {r['mutant']}   ({r['detail']})")
    summary = {"port": port.name, "commit": report.commit_of(ROOT, port.source),
               "seed": args.seed, "cases": args.cases, "jobs": args.jobs,
               "mutants": len(rows), "killed": killed, "hung": hung,
               "equivalent": equivalent, "out_of_scope": counts["out of scope"],
               "missed": missed, "stale": counts["stale"], "score": round(score, 2),
               "seconds": round(seconds, 1), "sample": args.sample, "rows": rows}
    if port.build is not None:
        summary["not_compiled"] = counts["not compiled"]
    return summary


def record(summaries):
    """last-run.json with this run's ports replacing their earlier entries,
    so that `--port java --record` leaves the other ports' runs as they were;
    each port as report.summary_of keeps it (--json has every row)."""
    previous = json.loads(LAST_RUN.read_text()) if LAST_RUN.exists() else {}
    ports = {}
    for p in previous.get("ports", []):
        for field in ("seed", "cases", "commit"):
            if field not in p and field in previous:
                p[field] = previous[field]
        ports[p["port"]] = p
    ports.update({s["port"]: s for s in summaries})
    ports = {name: report.summary_of(p) for name, p in ports.items()}
    run = {"threshold": THRESHOLD, "ports": [ports[p.name] for p in PORTS if p.name in ports]}
    LAST_RUN.write_text(json.dumps(run, indent=1) + "\n")
    return run


def new_survivors(summaries, args):
    """The nightly's report: each port's score, and every mutant that
    survived without an argument (at a new seed, a chance miss or a change),
    with the command that replays it."""
    lines = [f"## Port mutants at check seed {args.seed}\n",
             "| port | mutants | killed | score | new survivors | time |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    found = []
    for s in summaries:
        missed = [r for r in s["rows"] if r["verdict"] in MISSED]
        found += [(s["port"], r) for r in missed]
        lines.append(f"| {s['port']} | {s['mutants']} | {s['killed']} | {report.score_text(s)} | "
                     f"{len(missed)} | {s['seconds']:.0f} s |")
    lines.append("")
    if found:
        lines.append("New survivors (not in mutation/ports/equivalents.json), each replayed by "
                     "the command under it:\n")
        for port, r in found:
            lines.append(f"- `{r['key']}`: `{r['original']}` → `{r['mutant']}` ({r['verdict']})\n"
                         f"  `scripts/mutate-ports --port {port} --check-seed {args.seed} "
                         f"--replay {shlex.quote(r['key'])}`")
    else:
        lines.append("New survivors: none.")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--port", action="append", choices=sorted(PORTS_BY_NAME),
                   help="a port to analyse (default: every port whose language is here; with "
                   "--sample, the ports CI gates: Python and Go)")
    p.add_argument("--retry-policy", type=pathlib.Path,
                   default=ROOT / "build" / "release" / "bin" / "retry-policy")
    p.add_argument("--build-dir", type=pathlib.Path, default=ROOT / "build" / "mutation-ports")
    p.add_argument("--check-seed", "--seed", dest="seed", type=int, default=CHECK_SEED,
                   metavar="N", help=f"check's --seed (default {CHECK_SEED}, the seed the "
                   "equivalents are argued at)")
    p.add_argument("--cases", type=int, default=CHECK_CASES, help="check's --cases")
    p.add_argument("--sample", type=int, metavar="N",
                   help="analyse N mutants a port besides every mutant of its focus (the cost "
                   "limit's code)")
    p.add_argument("--sample-seed", type=int, default=SAMPLE_SEED)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--only", metavar="TEXT", help="only the mutants whose key holds TEXT")
    p.add_argument("--resume", action="store_true",
                   help="take the results an earlier run of the same mutants, port, binary, "
                   "seed and cases wrote to BUILD_DIR/PORT-results.jsonl, and run the rest")
    p.add_argument("--check-equivalents", action="store_true",
                   help="run the argued equivalents too: one killed is stale")
    p.add_argument("--list", action="store_true")
    p.add_argument("--replay", metavar="KEY_OR_ID")
    p.add_argument("--argue", nargs=2, metavar=("KEY", "WHY"))
    p.add_argument("--judged-by", metavar="HARNESS",
                   help="with --argue: the mutant is outside what check sends, and HARNESS "
                   "judges it (stats judges sample); it leaves the score")
    p.add_argument("--record", action="store_true",
                   help="write mutation/ports/last-run.json (this run's ports; the others' "
                   "entries stay) and docs/mutation-ports.md")
    p.add_argument("--json", type=pathlib.Path, help="write the result here too")
    p.add_argument("--report-only", action="store_true",
                   help="report each port's score and new survivors, and exit 0 whatever they "
                   "are (the nightly, at a rotating --check-seed)")
    p.add_argument("--summary", type=pathlib.Path, metavar="FILE",
                   help="append the scores and new survivors to FILE, as Markdown (the nightly "
                   "gives $GITHUB_STEP_SUMMARY)")
    args = p.parse_args()

    available = [port.name for port in PORTS if all(shutil.which(n) for n in port.needs)]
    names = args.port or [n for n in available if not args.sample or PORTS_BY_NAME[n].gated]
    if (args.replay or args.argue or args.list) and len(names) != 1:
        p.error("--list, --replay and --argue take one --port")
    if args.record and (args.sample or args.only):
        p.error("--record keeps full runs only: no --sample or --only")
    rp = args.retry_policy
    if not rp.exists():
        p.error(f"{rp} is not built: cmake --workflow --preset release first")
    args.build_dir = args.build_dir.resolve()
    args.build_dir.mkdir(parents=True, exist_ok=True)
    # A copy, so that a rebuild during the analysis cannot change the cases
    # between the traced run and the mutants' runs.
    # (Renamed into place: a check of an earlier run may still hold the old one.)
    shutil.copy2(rp, args.build_dir / "retry-policy.new")
    os.replace(args.build_dir / "retry-policy.new", args.build_dir / "retry-policy")
    shown = rp.relative_to(ROOT) if rp.is_relative_to(ROOT) else rp
    rp = args.build_dir / "retry-policy"
    say(f"check --seed {args.seed} --cases {args.cases} --no-vectors; {shown}; "
        f"ports: {', '.join(names)}")
    summaries = []
    for name in names:
        result = analyse(PORTS_BY_NAME[name], args, rp)
        if isinstance(result, int):
            return result
        if result is not None:
            summaries.append(result)
    if not summaries:
        return 0
    if args.json:
        args.json.write_text(json.dumps({"seed": args.seed, "cases": args.cases,
                                         "threshold": THRESHOLD, "ports": summaries},
                                        indent=1) + "\n")
    if args.record:
        run = record(summaries)
        report.write(run, load_equivalents(), REPORT)
        say(f"wrote {LAST_RUN.relative_to(ROOT)} and {REPORT.relative_to(ROOT)}")
    if args.summary or args.report_only:
        text = new_survivors(summaries, args)
        print(text)
        if args.summary:
            with open(args.summary, "a") as out:
                out.write(text)
    failing = [s for s in summaries if s["score"] < THRESHOLD or s["stale"]]
    for s in summaries:
        say(f"{'SCORE' if args.report_only else 'GATE'} {s['port']}: {report.score_text(s)} of "
            f"{s['killed'] + s['missed'] + s['stale']} non-equivalent mutants killed (at least "
            f"{THRESHOLD:g}%), {s['stale']} stale")
    if args.report_only:
        say("VERDICT: REPORTED (--report-only: a survivor at a new seed is news, not a failure)")
        return 0
    if failing:
        say("VERDICT: FAIL: " + ", ".join(s["port"] for s in failing) + " below the gate")
        return 1
    say("VERDICT: PASS")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.exit(main())
