#!/usr/bin/env python3
"""Python's common default sources, drawn for sample_adapter.py.

    python3 sources.py SOURCE    reads "T N" lines, answers N draws, one a line (repr)

SOURCE is one of:
    random            random.random, seeded by Python from os.urandom
    seed-time         random.seed(int(time.time())) at start, then random.random
    seed-pid          random.seed(os.getpid()) at start, then random.random

T > 1: T threads released together draw from the one module-level generator,
as a pool of a port's users would; thread i makes N // T draws, one more if
i < N % T, written thread by thread.
"""

import os
import random
import sys
import threading
import time


def seeded(seed):
    random.seed(seed)
    return random.random


SOURCES = {
    "random": lambda: random.random,
    "seed-time": lambda: seeded(int(time.time())),
    "seed-pid": lambda: seeded(os.getpid()),
}


def drawn_by_threads(draw, count, threads):
    shares = [[] for _ in range(threads)]
    start = threading.Barrier(threads)

    def share(i):
        calls = count // threads + (1 if i < count % threads else 0)
        start.wait()
        shares[i].extend(draw() for _ in range(calls))

    pool = [threading.Thread(target=share, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return [x for drawn in shares for x in drawn]


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in SOURCES:
        sys.exit(f"usage: sources.py {{{'|'.join(SOURCES)}}}")
    draw = SOURCES[sys.argv[1]]()
    for line in sys.stdin:
        threads, count = map(int, line.split())
        drawn = ([draw() for _ in range(count)] if threads == 1
                 else drawn_by_threads(draw, count, threads))
        sys.stdout.write("".join(repr(x) + "\n" for x in drawn))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
