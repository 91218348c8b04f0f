#!/usr/bin/env python3
"""proxy: stands between `retry-policy check` and a port's mutant adapter, so
that a mutant meets only the request lines that reach its site.

  proxy.py --record ANSWERS -- ADAPTER...
      forwards every line to the unmutated adapter and keeps each answer,
      one a line, in ANSWERS (the traced run);
  proxy.py --replay ANSWERS --keep LINES -- ADAPTER...
      forwards only the lines whose numbers (from 0, one a line in LINES)
      are listed, and answers every other line with the unmutated answer.

A line whose run never evaluates the mutant's switch is answered exactly as
the original answers it (every request is independent: docs/protocol.md),
so `check` sees the same bytes it would see from the whole mutant adapter,
and the verdict is the verdict of `check` itself. The proxy waits for each
answer before it reads the next line, which is what lets the traced run
attribute each site to a line.

When the adapter dies or closes its output, the proxy closes its own, so
`check` sees an adapter that died, as it would without the proxy; at the
end of input it passes on whatever the adapter writes after its last
answer, and the adapter's exit status, which check judges too.
"""
import argparse
import subprocess
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", metavar="ANSWERS")
    mode.add_argument("--replay", metavar="ANSWERS")
    p.add_argument("--keep", metavar="LINES")
    p.add_argument("adapter", nargs=argparse.REMAINDER)
    args = p.parse_args()
    command = args.adapter[1:] if args.adapter[:1] == ["--"] else args.adapter
    if not command:
        p.error("no adapter command after --")

    recorded = None
    keep = None
    if args.replay:
        with open(args.replay, "rb") as f:
            recorded = f.read().split(b"\n")
        with open(args.keep, encoding="ascii") as f:
            keep = {int(n) for n in f.read().split()}
    record = open(args.record, "wb") if args.record else None  # noqa: SIM115

    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = sys.stdout.buffer
    number = 0
    try:
        for line in sys.stdin.buffer:
            # A line the traced run never saw (a shrinking query) is the
            # mutant's to answer.
            if keep is not None and number not in keep and number < len(recorded) - 1:
                answer = recorded[number] + b"\n"
            else:
                child.stdin.write(line if line.endswith(b"\n") else line + b"\n")
                child.stdin.flush()
                answer = child.stdout.readline()
                if not answer:
                    break
                if record is not None:
                    record.write(answer if answer.endswith(b"\n") else answer + b"\n")
            out.write(answer)
            out.flush()
            number += 1
        child.stdin.close()
        # What the adapter writes once its input ends answers no request:
        # check must see it, and how the adapter exits.
        out.write(child.stdout.read())
        out.flush()
    except (BrokenPipeError, OSError):
        pass
    finally:
        if record is not None:
            record.close()
    # check kills the whole process group if the adapter never exits.
    code = child.wait()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main())
