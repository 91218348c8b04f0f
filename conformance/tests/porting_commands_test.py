#!/usr/bin/env python3
"""PORTING.md's `retry-policy` commands run as written, and pass.

    porting_commands_test.py RETRY_POLICY PORTING_MD WORK_DIR

Every line of a ```sh block of the guide that starts `retry-policy` (a
continued line joined, its comment dropped) is run with /bin/sh in WORK_DIR,
with this build's retry-policy, and must exit 0: a port's maintainer copies
these, so a flag that has changed, two flags that cannot go together, or a
file the guide never makes must fail here first (PORTING §6's
`--vectors my-vectors.jsonl --no-vectors` once exited 2). The adapter of each
`--impl` stands for the reader's own; the core's `retry-policy serve`
answers for all of them, so every command's verdict is a pass. The lines
that install (`sudo`, `cmake`, `dpkg`, `man`) are CI's `package` step.
"""

import os
import shlex
import subprocess
import sys
import time

from assertions import expect, finish


def commands(markdown):
    """The guide's retry-policy lines, in order, continuations joined."""
    out = []
    in_sh = False
    pending = ""
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            in_sh = stripped == "```sh" and not in_sh
            pending = ""
            continue
        if not in_sh:
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = (pending + stripped).strip()
        pending = ""
        if whole.startswith("retry-policy "):
            out.append(whole)
    return out


def as_run(command, retry_policy):
    """The command with this build's binary, every adapter replaced by serve."""
    words = shlex.split(command, comments=True)
    serve = f"{shlex.quote(retry_policy)} serve"
    words[0] = retry_policy
    for i, word in enumerate(words[:-1]):
        if word == "--impl":
            words[i + 1] = serve
    redirect = ""
    for symbol in (">", "<"):
        if symbol in words:
            at = words.index(symbol)
            redirect = f" {symbol} {shlex.quote(words[at + 1])}"
            words = words[:at] + words[at + 2:]
    return " ".join(shlex.quote(w) for w in words) + redirect


def main():
    retry_policy, porting, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    with open(porting, encoding="utf-8") as f:
        found = commands(f.read())
    expect(len(found) >= 5, f"{porting}: only {len(found)} retry-policy commands found")
    # The files the guide's commands read: requests made as a user would,
    # and the vectors file made first when a line writes it.
    subprocess.run(f"{shlex.quote(retry_policy)} vectors --cases 20 --seed 1 > requests.jsonl",
                   shell=True, cwd=work, check=True)
    writers = [c for c in found if ">" in shlex.split(c, comments=True)]
    for command in writers + [c for c in found if c not in writers]:
        run = as_run(command, retry_policy)
        started = time.monotonic()
        done = subprocess.run(["/bin/sh", "-c", run], cwd=work, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600)
        seconds = time.monotonic() - started
        last = done.stdout.strip().splitlines()[-1:] or [""]
        print(f"--- {command}\n    ran: {run}\n    exit {done.returncode} in {seconds:.1f} s: "
              f"{last[0][:160]}")
        expect(done.returncode == 0,
               f"`{command}` exits {done.returncode}:\n{done.stdout[-2000:]}")
    return finish(f"{len(found)} commands")


if __name__ == "__main__":
    sys.exit(main())
