#!/usr/bin/env python3
"""The figures README.md derives from code, held to the code that owns them,
so that a change of the code fails this test until the docs follow.

    readme_figures_test.py --source DIR --build DIR --ctest CTEST
                           --power-table STATS_POWER_TABLE --retry-policy RETRY_POLICY

Each claim is a phrase of the README (or of docs/measurements.md) and the
command whose output it must agree with:

- the table of what `stats` detects: every row, figure for figure, and its
  alpha, as `stats_power_table --port <--quick's n> <the default n>` prints
  them;
- the exit codes of `check` and `stats`, as their `--help` words them;
- the defaults the README quotes (generated requests, `--quick`'s draws a
  cell, threads, processes), as `--help` gives them;
- the statistics suite's cells, tests a cell, family and per-test alpha,
  known-bad jitters, and samples a cell per commit and nightly (CTest's list
  of tests and `stats_power_table`);
- the properties (CTest's label) and the Ruby reference vectors (the
  vector file);
- docs/measurements.md's budget table, as scripts/harness declares the
  budgets;
- every relative link of every markdown page of the tree (build trees
  aside): the file exists, and so does the heading a `#fragment` names
  (GitHub's anchors), so moving a section or a file breaks no page.

A phrase the README no longer has is a failure too: when a figure is taken
out of the README, take its claim out of here. Prints each claim with both
sides; ends in PASSED or FAILED.
"""

import argparse
import json
import math
import pathlib
import re
import shlex
import subprocess
import sys

# The assertions every test script shares live beside the conformance tests.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "conformance" / "tests"))
from assertions import expect, fail, finish  # noqa: E402

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
                "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16}


def run(command):
    print("$", shlex.join(command), flush=True)
    return subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True).stdout


def holds(what, stated, derived, how):
    """One claim: the docs state `stated`, the code gives `derived`."""
    ok = stated == derived
    print(f"{'ok  ' if ok else 'FAIL'} {what}: the docs say {stated!r}, {how} gives {derived!r}")
    expect(ok, f"{what}: the docs say {stated!r}, but {how} gives {derived!r}; "
               f"make the docs say what the code does")


def find(text, pattern, what, where="README.md"):
    """The groups of `pattern` in `text` (whitespace-normalised), or a failure."""
    match = re.search(pattern, text)
    if not match:
        fail(f"{where} no longer says {what} (pattern {pattern!r}): if the figure "
             f"was taken out, take its claim out of tests/readme_figures_test.py")
        print(f"FAIL {where} no longer says {what}")
        return None
    return match.groups()


def number(word):
    """A count as the README writes it ("Fourteen", "5,000"), or the word itself."""
    plain = word.lower().replace(",", "")
    return NUMBER_WORDS.get(plain, int(plain) if plain.isdigit() else word)


def power_rows(output):
    """`stats_power_table`'s markdown: (test, alpha, n, figure) a row."""
    rows = []
    for line in output.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 5 and re.fullmatch(r"\d+", cells[2]):
            rows.append((cells[0], cells[1], int(cells[2]), cells[3]))
    return rows


def markdown_table_after(lines, header_pattern):
    """The rows (lists of cells) of the first table whose header matches."""
    for i, line in enumerate(lines):
        if line.startswith("|") and re.search(header_pattern, line):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]])
            return rows
    return None


def help_exits(help_text):
    """'Exit 0: X; 1: Y; 2: Z' of a subcommand's --help, as {0: X, 1: Y, 2: Z}."""
    match = re.search(r"Exit 0: (.*?); 1: (.*?); 2: (.*)", help_text)
    return {0: match.group(1).strip(), 1: match.group(2).strip(), 2: match.group(3).strip()}


def help_default(help_text, flag):
    """The default a flag's entry in --help states ("default N"), as an int."""
    entry = re.search(r"^\s*" + re.escape(flag) + r"\b(.*(?:\n(?!\s*-).*)*)", help_text,
                      re.MULTILINE)
    default = entry and re.search(r"default (\d+)", entry.group(1))
    return int(default.group(1)) if default else None


def check_port_power_table(readme_lines, power_table, rp_stats_help):
    quick = int(re.search(r"--quick\s+n (\d+) a cell", rp_stats_help).group(1))
    default = help_default(rp_stats_help, "--n")
    command = [power_table, "--port", str(quick), str(default)]
    rows = power_rows(run(command))
    how = shlex.join(["stats_power_table"] + command[1:])
    header = re.escape(f"`stats_power_table --port {quick} {default}`")
    table = markdown_table_after(readme_lines, header)
    if table is None:
        fail(f"README.md has no table headed by `{how}` (or `--quick` or the default "
             f"n changed: --help says {quick} and {default})")
        print(f"FAIL README.md has no table headed by `{how}`")
        return
    header_line = next(line for line in readme_lines if re.search(header, line))
    alphas = {alpha for _, alpha, _, _ in rows}
    stated_alpha = re.search(r"per-test α (\S+?)\)", header_line)
    holds("the port table's per-test alpha", stated_alpha and stated_alpha.group(1),
          ",".join(sorted(alphas)), how)
    power = re.search(r"`--quick` \(2\^(\d+)\)", header_line)
    holds("the port table's `--quick` n", power and 2 ** int(power.group(1)), quick,
          "retry-policy stats --help")
    power = re.search(r"default \(10\^(\d+)\)", header_line)
    holds("the port table's default n", power and 10 ** int(power.group(1)), default,
          "retry-policy stats --help")
    derived = {}
    for test, _, n, figure in rows:
        derived.setdefault(test, {})[n] = figure
    stated = {}
    for cells in table:
        name = re.fullmatch(r"`([^`]+)`", cells[0])
        if name and len(cells) == 4:
            stated[name.group(1)] = {quick: cells[2], default: cells[3]}
    holds("the port table's tests", sorted(stated), sorted(derived), how)
    for test in sorted(set(stated) & set(derived)):
        holds(f"the port table's row {test}", stated[test], derived[test], how)


def check_exit_codes(readme_lines, rp):
    table = markdown_table_after(readme_lines, r"^\| exit \| `retry-policy check` \| "
                                               r"`retry-policy stats` \|")
    if table is None:
        fail("README.md has no table of check's and stats' exit codes")
        print("FAIL README.md has no exit-code table")
        return
    stated_check = {int(cells[0]): cells[1] for cells in table}
    stated_stats = {int(cells[0]): cells[2] for cells in table}
    holds("check's exit codes", stated_check, help_exits(run([rp, "check", "--help"])),
          "retry-policy check --help")
    holds("stats's exit codes", stated_stats, help_exits(run([rp, "stats", "--help"])),
          "retry-policy stats --help")


def anchors(path):
    """The #fragments GitHub gives a markdown file's headings."""
    found, seen, fenced = set(), {}, False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"#{1,6} (.*)", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def check_links(source, relative):
    """Every relative link of a markdown file resolves: file, and heading if named."""
    page = source / relative
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, fragment = target.partition("#")
        resolved = (page.parent / file).resolve() if file else page
        if not resolved.exists():
            broken.append(f"{target} (no file {resolved})")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target} (no heading #{fragment} in {resolved.name})")
    print(f"{'ok  ' if not broken else 'FAIL'} {relative}'s relative links resolve"
          + "".join(f"\n     broken: {b}" for b in broken))
    expect(not broken, f"{relative} links to what does not exist: {'; '.join(broken)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", type=pathlib.Path, required=True)
    parser.add_argument("--build", type=pathlib.Path, required=True)
    parser.add_argument("--ctest", required=True)
    parser.add_argument("--power-table", required=True)
    parser.add_argument("--retry-policy", required=True)
    args = parser.parse_args()

    readme_raw = (args.source / "README.md").read_text(encoding="utf-8")
    readme_lines = readme_raw.splitlines()
    readme = re.sub(r"\s+", " ", readme_raw)
    rp = args.retry_policy
    check_help = run([rp, "check", "--help"])
    stats_help = run([rp, "stats", "--help"])

    # retry-policy: its tables and defaults.
    check_port_power_table(readme_lines, args.power_table, stats_help)
    check_exit_codes(readme_lines, rp)
    got = find(readme, r"and ([\d,]+) generated requests", "how many requests check generates")
    if got:
        holds("check's generated requests", number(got[0]), help_default(check_help, "--cases"),
              "retry-policy check --help")
    got = find(readme, r"2\^(\d+) draws a cell at `--quick`", "--quick's draws a cell")
    if got:
        holds("stats --quick's draws a cell", 2 ** int(got[0]),
              int(re.search(r"--quick\s+n (\d+) a cell", stats_help).group(1)),
              "retry-policy stats --help")
    got = find(readme, r"one cell drawn by (\w+) threads at once", "stats's threads")
    if got:
        holds("stats's threads", number(got[0]), help_default(stats_help, "--threads"),
              "retry-policy stats --help")
    got = find(readme, r"the first draws of (\w+) processes started at once", "stats's fleet")
    if got:
        holds("stats's fleet", number(got[0]), help_default(stats_help, "--processes"),
              "retry-policy stats --help")

    # The statistics suite: its grid, tests, alpha and doubles.
    tests = json.loads(run([args.ctest, "--test-dir", str(args.build), "-N",
                            "--show-only=json-v1"]))["tests"]
    names = [t["name"] for t in tests]
    cells = sum(1 for name in names if name.startswith("Stats/GridCell."))
    doubles = {m.group(1) for name in names
               for m in [re.match(r"Stats/KnownBadDouble\.IsRejected/(\w+?)_f\d+\b", name)] if m}
    core_rows = power_rows(run([args.power_table]))
    sizes = sorted({n for _, _, n, _ in core_rows})
    tests_a_cell = sum(1 for _, _, n, _ in core_rows if n == sizes[0])
    core_alpha = {alpha for _, alpha, _, _ in core_rows}
    got = find(readme, r"run over (\d+) cells", "the grid's cells")
    if got:
        holds("the statistics grid's cells", int(got[0]), cells,
              "ctest -N (the Stats/GridCell tests)")
    got = find(readme, r"(\w+) Boost\.Math-based tests", "the battery's tests")
    if got:
        holds("the battery's tests a cell", number(got[0]), tests_a_cell,
              "stats_power_table (its rows at one n)")
    got = find(readme, r"α = 1e-6 / (\d+) = (\S+?) \(", "the per-commit alpha")
    if got:
        holds("the family's tests, cells × tests a cell", int(got[0]), cells * tests_a_cell,
              "ctest -N and stats_power_table")
        holds("1e-6 divided by the family", f"{1e-6 / int(got[0]):.3g}", f"{float(got[1]):.3g}",
              "the README's own division")
        holds("the per-test alpha", {f"{float(got[1]):.2e}"}, core_alpha, "stats_power_table")
    got = find(readme, r"(\w+) known-bad jitters must each be rejected", "the known-bad doubles")
    if got:
        holds("the known-bad doubles", number(got[0]), len(doubles),
              "ctest -N (the Stats/KnownBadDouble tests, one a double and factor)")
    got = find(readme, r"per commit: fixed seeds, 10\^(\d+) samples a cell", "the per-commit n")
    if got:
        holds("the per-commit samples a cell", 10 ** int(got[0]), sizes[0], "stats_power_table")
    got = find(readme, r"a fresh seed, 10\^(\d+) a cell", "the nightly's n")
    if got:
        holds("the nightly's samples a cell", 10 ** int(got[0]), sizes[-1], "stats_power_table")

    # The properties and the reference vectors.
    properties = sum(1 for t in tests for p in t.get("properties", [])
                     if p["name"] == "LABELS" and "properties" in p["value"])
    got = find(readme, r"(\d+) RapidCheck properties", "how many properties")
    if got:
        holds("the properties", int(got[0]), properties, "ctest -N -L properties")
    vectors_file = args.source / "conformance" / "vectors" / "ruby-reference.jsonl"
    vectors = sum(1 for line in vectors_file.read_text(encoding="utf-8").splitlines()
                  if line.strip())
    stated = {int(n) for n in re.findall(r"the (\d+) (?:Ruby )?reference vectors", readme)}
    if not stated:
        find(readme, r"the (\d+) (?:Ruby )?reference vectors", "how many reference vectors")
    holds("the Ruby reference vectors", stated or None, {vectors},
          "conformance/vectors/ruby-reference.jsonl's lines")

    # docs/measurements.md: the budgets are scripts/harness's.
    harness = (args.source / "scripts" / "harness").read_text(encoding="utf-8")
    budgets = {k: float(v) for k, v in
               re.findall(r"\[(\w+)\]=(\d+(?:\.\d+)?)",
                          re.search(r"declare -A budget=\((.*?)\)", harness).group(1))}
    measurements = (args.source / "docs" / "measurements.md").read_text(encoding="utf-8")
    table = markdown_table_after(measurements.splitlines(), r"^\| label \| budget \|")
    if table is None:
        fail("docs/measurements.md has no budget table (| label | budget | ...)")
        print("FAIL docs/measurements.md has no budget table")
    else:
        stated = {}
        for cells in table:
            label = re.fullmatch(r"`(\w+)`", cells[0])
            seconds = float(re.fullmatch(r"([\d.]+) s", cells[1]).group(1))
            stated[label.group(1) if label else cells[0]] = seconds
        derived = dict(budgets, **{"all four": math.fsum(budgets.values())})
        holds("docs/measurements.md's budgets", stated, derived,
              "scripts/harness's declare -A budget")

    for page in sorted(args.source.rglob("*.md")):
        relative = page.relative_to(args.source)
        if not relative.parts[0].startswith(("build", ".")):
            check_links(args.source, str(relative))

    return finish()


if __name__ == "__main__":
    sys.exit(main())
