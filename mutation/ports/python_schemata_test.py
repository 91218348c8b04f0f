#!/usr/bin/env python3
"""Tests of python_schemata.py, on the real Python port: the schemata it writes
run as the port does with no mutant, each mutant is keyed once, and a mutant
switched on changes an answer.

    python3 -m unittest mutation/ports/python_schemata_test.py     (from the repository)
"""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
PORT = HERE.parent.parent / "conformance" / "adapters" / "python"

spec = importlib.util.spec_from_file_location("python_schemata", HERE / "python_schemata.py")
python_schemata = importlib.util.module_from_spec(spec)
spec.loader.exec_module(python_schemata)

# Operators with no site in the port as it is: each is tried on a snippet
# instead, and the test says so when the port gains a site for it.
ABSENT_FROM_PORT = {"min-max": "def f(a, b):\n    return min(a, b)\n"}

SCHEDULE = ("from retry_policy import RetryPolicy\n"
            "print([x.hex() for x in RetryPolicy(max_attempts=5, initial_delay=1.0, "
            "multiplier=2.0, max_delay=3.0).schedule()])\n")
# delay *= multiplier turned into a division: 1.0, 0.5, 0.25, 0.125.
CHOSEN = "retry_policy.py | RetryPolicy.schedule | arithmetic *= -> /= | 0"


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACEMQ_MUTANT")}
    env.update(extra)
    return env


def run(folder, code, **env):
    result = subprocess.run([sys.executable, "-c", code], cwd=folder, env=clean_env(**env),
                            capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise AssertionError(f"{code!r} failed in {folder}: {result.stderr}")
    return result.stdout


class SchemataTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = pathlib.Path(cls.tmp.name) / "schemata"
        with open(os.devnull, "w") as quiet:
            stderr, sys.stderr = sys.stderr, quiet
            try:
                python_schemata.main(["--src", str(PORT), "--out", str(cls.out)])
            finally:
                sys.stderr = stderr
        cls.mutants = json.loads((cls.out / "manifest.json").read_text())["mutants"]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_ids_and_keys_are_unique(self):
        ids = [m["id"] for m in self.mutants]
        keys = [m["key"] for m in self.mutants]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertEqual(len(keys), len(set(keys)))
        self.assertEqual(sorted(ids), list(range(1, len(ids) + 1)))

    def test_no_mutant_is_the_port(self):
        self.assertEqual(run(self.out, SCHEDULE), run(PORT, SCHEDULE))
        self.assertEqual(run(self.out, SCHEDULE, ACEMQ_MUTANT="0"), run(PORT, SCHEDULE))

    def test_every_operator_makes_mutants(self):
        made = {m["operator"] for m in self.mutants}
        for operator in python_schemata.TABLE:
            with self.subTest(operator=operator.name):
                if operator.name in ABSENT_FROM_PORT:
                    self.assertNotIn(operator.name, made, "the port has a site now: "
                                     "drop it from ABSENT_FROM_PORT")
                    sites = python_schemata.FileMutator(
                        "snippet.py", ABSENT_FROM_PORT[operator.name]).collect()
                    made_here = {m.operator for s in sites for m in s.mutants}
                    self.assertIn(operator.name, made_here)
                else:
                    self.assertIn(operator.name, made)

    def test_a_mutant_changes_the_schedule(self):
        chosen = [m for m in self.mutants if m["key"] == CHOSEN]
        self.assertEqual(len(chosen), 1, CHOSEN)
        mutated = run(self.out, SCHEDULE, ACEMQ_MUTANT=str(chosen[0]["id"]))
        self.assertNotEqual(mutated, run(PORT, SCHEDULE))
        self.assertEqual(eval(mutated), [x.hex() for x in (1.0, 0.5, 0.25, 0.125)])

    def test_trace_marks_each_request(self):
        trace = self.out / "trace.txt"
        request = b'{"id":1,"op":"schedule","policy":{"max_attempts":3,"initial_delay":1}}\n'
        subprocess.run([sys.executable, str(self.out / "adapter.py")], input=request * 3,
                       env=clean_env(ACEMQ_MUTANT_TRACE=str(trace)), capture_output=True,
                       check=True, timeout=60)
        lines = trace.read_text().split()
        self.assertEqual(lines.count("L"), 3)
        schedule_ids = {str(m["id"]) for m in self.mutants
                        if m["function"] == "RetryPolicy.schedule"}
        segments = " ".join(lines).split("L")
        self.assertTrue(segments[0].split(), "nothing recorded before the first request")
        for segment in segments[1:]:
            ids = segment.split()
            self.assertEqual(len(ids), len(set(ids)), "an id twice in one segment")
            self.assertTrue(schedule_ids & set(ids), "schedule's sites not recorded")


if __name__ == "__main__":
    unittest.main()
