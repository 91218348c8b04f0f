#!/usr/bin/env python3
"""The man page and the command agree: every flag a command's --help lists
is in retry-policy.1, and every flag the page names is one a command takes,
so neither can change without the other.

    man_page_test.py RETRY_POLICY MAN_PAGE
"""

import re
import subprocess
import sys

FLAG = re.compile(r"--[a-z][a-z-]*[a-z]")


def main(rp, page):
    # troff writes a hyphen as \- ; the page's text with those undone.
    text = open(page).read().replace("\\-", "-")
    named = set(FLAG.findall(text))
    taken = set()
    failures = []
    for command in ("schedule", "serve", "check", "vectors", "stats"):
        run = subprocess.run([rp, command, "--help"], stdout=subprocess.PIPE, timeout=60)
        flags = set(FLAG.findall(run.stdout.decode())) - {"--help"}
        taken |= flags
        if f"\n.B {command}" not in text and f"\n.B retry-policy {command}" not in text:
            failures.append(f"the page does not describe the command {command}")
        for flag in sorted(flags - named):
            failures.append(f"retry-policy {command} takes {flag}, which the man page does not name")
    for flag in sorted(named - taken - {"--help"}):
        failures.append(f"the man page names {flag}, which no command takes")
    print(f"{len(taken)} flags, {len(named)} named in {page}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
