#!/usr/bin/env python3
"""The man page and the command agree: every flag a command's --help lists
is in retry-policy.1, and every flag the page names is one a command takes,
so neither can change without the other.

    man_page_test.py RETRY_POLICY MAN_PAGE
"""

import re
import subprocess
import sys

from assertions import expect, fail, finish

FLAG = re.compile(r"--[a-z][a-z-]*[a-z]")


def main(rp, page):
    # troff writes a hyphen as \- ; the page's text with those undone.
    text = open(page).read().replace("\\-", "-")
    named = set(FLAG.findall(text))
    taken = set()
    for command in ("schedule", "serve", "check", "vectors", "stats"):
        run = subprocess.run([rp, command, "--help"], stdout=subprocess.PIPE, timeout=60)
        flags = set(FLAG.findall(run.stdout.decode())) - {"--help"}
        taken |= flags
        expect(f"\n.B {command}" in text or f"\n.B retry-policy {command}" in text,
               f"the page does not describe the command {command}")
        for flag in sorted(flags - named):
            fail(f"retry-policy {command} takes {flag}, which the man page does not name")
    for flag in sorted(named - taken - {"--help"}):
        fail(f"the man page names {flag}, which no command takes")
    print(f"{len(taken)} flags, {len(named)} named in {page}")
    return finish()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
