#!/usr/bin/env python3
"""Unit tests of the Python port, anchored on the Ruby reference's measured
answers (docs/contract.md, section 6). `retry-policy check` is the real test;
these say what broke in the port's own words when it fails.

    python3 -m unittest test_retry_policy      (from this directory)
"""

import json
import math
import pathlib
import struct
import subprocess
import sys
import unittest

import adapter
from retry_policy import InvalidParameter, RetryPolicy, RubyRandom


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


class ProtocolTableTest(unittest.TestCase):
    """The adapter's limits, ops and members are the protocol's table's
    (conformance/protocol/protocol.json, `retry-policy protocol`): a limit
    changed there and not here fails now, not at the border case a run of
    check may or may not send."""

    TABLE = json.loads((pathlib.Path(__file__).resolve().parents[2]
                        / "protocol" / "protocol.json").read_text())

    def test_limits(self):
        for name, limit in self.TABLE["limits"].items():
            constant = "SEED_MAX" if name == "max_seed" else name.upper()
            self.assertEqual(getattr(adapter, constant), limit["value"], name)
        # A limit the adapter keeps and the table has lost is a rule no port
        # is told about.
        ours = {name for name in vars(adapter) if name.startswith("MAX_") or name == "SEED_MAX"}
        table = {"SEED_MAX" if name == "max_seed" else name.upper() for name in self.TABLE["limits"]}
        self.assertEqual(ours, table, "the adapter's limits against the table's")

    def test_ops_and_their_members(self):
        self.assertEqual(list(adapter.OPS), [op["name"] for op in self.TABLE["ops"]])
        for op in self.TABLE["ops"]:
            self.assertEqual(adapter.OPS[op["name"]][0],
                             tuple(m["name"] for m in op["members"]), op["name"])
        self.assertEqual(adapter.VECTOR_LINE_MEMBERS, tuple(self.TABLE["vector_line_members"]))


class RubyRandomTest(unittest.TestCase):
    def test_seed_42_matches_ruby(self):
        rand = RubyRandom(42)
        self.assertEqual([bits(rand()) for _ in range(3)],
                         [bits(0.3745401188473625), bits(0.9507143064099162),
                          bits(0.7319939418114051)])

    def test_seed_0_and_top_seed_match_ruby(self):
        zero = RubyRandom(0)
        self.assertEqual(bits(zero()), bits(0.5488135039273248))
        self.assertEqual(bits(zero()), bits(0.7151893663724195))
        self.assertEqual(bits(RubyRandom(4294967295)()), bits(0.0976320289940138))

    def test_survives_a_twist(self):
        # 624 words make 312 draws; the 313th comes after the second twist.
        rand = RubyRandom(7)
        draws = [rand() for _ in range(1000)]
        self.assertTrue(all(0.0 <= r < 1.0 for r in draws))
        self.assertEqual(len(set(draws)), 1000)

    def test_rejects_seeds_outside_32_bits(self):
        for seed in (-1, 1 << 32, 1.5):
            with self.assertRaises(ValueError):
                RubyRandom(seed)


class ContractExamplesTest(unittest.TestCase):
    def assertBits(self, actual, expected):
        self.assertEqual([bits(x) for x in actual], [bits(x) for x in expected],
                         f"{actual} != {expected}")

    def test_schedules(self):
        self.assertBits(RetryPolicy.exponential(5, 0.5, 3.0).schedule(), [0.5, 1.0, 2.0, 3.0])
        self.assertBits(RetryPolicy(max_attempts=6, initial_delay=100, multiplier=0.5,
                                    max_delay=30).schedule(), [30.0, 30.0, 25.0, 12.5, 6.25])
        self.assertBits(RetryPolicy(max_attempts=4, initial_delay=0.1, multiplier=3).schedule(),
                        [0.1, 0.30000000000000004, 0.9000000000000001])
        self.assertEqual(RetryPolicy(max_attempts=1100, initial_delay=1,
                                     multiplier=2).schedule()[-1], math.inf)
        self.assertBits(RetryPolicy(max_attempts=6, initial_delay=7,
                                    multiplier=-0.0).schedule(), [7.0, -0.0, 0.0, -0.0, 0.0])
        self.assertEqual(RetryPolicy.none().schedule(), [])

    def test_jitter(self):
        self.assertBits([RetryPolicy(jitter_factor=0.2).jittered_with_draw(1.5, 0.0)],
                        [1.2000000000000002])
        self.assertBits([RetryPolicy(jitter_factor=0.3).jittered_with_draw(
            0.7, float.fromhex("0x1.5876015e4d702p-6"))], [0.4988301759350254])
        self.assertBits([RetryPolicy(jitter_factor=0.5).jittered_with_draw(8.0, 1 - 2 ** -53)],
                        [12.0])
        self.assertBits([RetryPolicy(max_attempts=3, initial_delay=5, jitter_factor=1)
                         .next_delay(1, source=lambda: 0.0)], [0.0])
        self.assertBits([RetryPolicy(max_attempts=4, initial_delay=1, multiplier=0.5,
                                     max_delay=0.3, jitter_factor=0.5)
                         .next_delay(3, source=lambda: 0.999)], [0.37475])

    def test_replay_of_seed_42(self):
        policy = RetryPolicy.exponential(5, 0.5)
        rand = RubyRandom(42)
        delays = [policy.next_delay(k, source=rand) for k in range(1, 6)]
        self.assertBits(delays[:4], [0.4749080237694725, 1.1802857225639665,
                                     2.1855951534491243, 4.157853574715259])
        self.assertIsNone(delays[4])

    def test_giving_up(self):
        self.assertIsNone(RetryPolicy.fixed(3, 1.0).next_delay(3))
        self.assertIsNone(RetryPolicy(max_attempts=5, initial_delay=1,
                                      max_message_age=60).next_delay(1, 60.0))

    def test_no_draw_where_no_jitter_applies(self):
        def no_draw():
            raise AssertionError("drew")
        policy = RetryPolicy(max_attempts=3, initial_delay=1, multiplier=0, jitter_factor=0.5)
        self.assertEqual(policy.next_delay(2, source=no_draw), 0.0)   # zero delay
        self.assertIsNone(policy.next_delay(3, source=no_draw))       # gave up

    def test_infinity_jittered_to_zero_stays_infinite(self):
        self.assertEqual(RetryPolicy(jitter_factor=1).jittered_with_draw(math.inf, 0.0), math.inf)

    def test_far_attempts_are_cheap_where_the_value_settles(self):
        capped = RetryPolicy(max_attempts=1 << 62, initial_delay=1, max_delay=30)
        self.assertEqual(capped.next_delay(10 ** 15, jitter=False), 30.0)
        shrinking = RetryPolicy(max_attempts=1 << 62, initial_delay=1, multiplier=0.5)
        self.assertEqual(shrinking.next_delay(10 ** 15, jitter=False), 0.0)


class ValidationTest(unittest.TestCase):
    def test_rejects_what_the_contract_rejects(self):
        for fields in ({"max_attempts": 0}, {"max_attempts": 2.0}, {"initial_delay": -1},
                       {"multiplier": math.nan}, {"max_delay": math.inf},
                       {"jitter_factor": 1.0000000000000002}, {"max_message_age": -0.5}):
            with self.subTest(fields=fields), self.assertRaises(ValueError):
                RetryPolicy(**fields)
        with self.assertRaises(ValueError):
            RetryPolicy().next_delay(0)
        with self.assertRaises(ValueError):
            RetryPolicy(max_attempts=3).next_delay(1, math.nan)
        with self.assertRaises(ValueError):
            RetryPolicy(jitter_factor=0.5).jittered_with_draw(1.0, 1.0)

    def test_refusals_are_typed(self):
        """A refusal carries its parameter, rule and value apart, so the
        adapter names its own field without parsing the message."""
        cases = [
            (lambda: RetryPolicy(max_attempts=0), "max_attempts", "at least 1", 0),
            (lambda: RetryPolicy(initial_delay=-1.0), "initial_delay", "finite and >= 0", -1.0),
            (lambda: RetryPolicy(jitter_factor=1.5), "jitter_factor", "in [0, 1]", 1.5),
            (lambda: RetryPolicy().give_up_after(-2.0), "max_message_age", "finite and >= 0", -2.0),
            (lambda: RetryPolicy().next_delay(0), "attempt", "at least 1", 0),
            (lambda: RetryPolicy(jitter_factor=0.5).jittered_with_draw(1.0, 1.0), "r", "in [0, 1)", 1.0),
        ]
        for make, parameter, rule, value in cases:
            with self.subTest(parameter=parameter), self.assertRaises(InvalidParameter) as caught:
                make()
            self.assertEqual((caught.exception.parameter, caught.exception.rule,
                              caught.exception.value), (parameter, rule, value))
            name = "draw r" if parameter == "r" else parameter
            self.assertIn(f"{name} must be {rule}, got ", str(caught.exception))

    def test_keeps_negative_zero(self):
        self.assertEqual(math.copysign(1, RetryPolicy(initial_delay=-0.0).initial_delay), -1)


class AdapterTest(unittest.TestCase):
    def test_issue_examples(self):
        self.assertEqual(adapter.answer_line(
            b'{"id":1,"op":"schedule","policy":{"factory":"exponential","max_attempts":5,'
            b'"initial_delay":0.5,"max_delay":3}}'),
            '{"id":1,"ok":true,"result":[0.5,1.0,2.0,3.0]}')
        self.assertEqual(adapter.answer_line(
            b'{"id":3,"op":"jittered","policy":{"jitter_factor":0.2},"delay":1.5,"r":0.0}'),
            '{"id":3,"ok":true,"result":1.2000000000000002}')

    def test_python_leniencies_are_refused(self):
        # Each is accepted by Python's json module and refused by the protocol.
        for line in (b'{"id":1,"op":"jittered","policy":{},"delay":NaN,"r":0}',
                     b'{"id":1,"op":"jittered","policy":{},"delay":1e400,"r":0}',
                     b'{"id":1,"op":"schedule","policy":{},"x":"\\ud800"}',
                     b'{"id":1,"op":"schedule","policy":{"max_attempts":true}}',
                     b'{"id":1,"op":"schedule","policy":{"max_attempts":3.0}}'):
            with self.subTest(line=line):
                self.assertIn('"ok":false', adapter.answer_line(line))


class SampleThreadsTest(unittest.TestCase):
    """sample with `threads`: random.random shared by threads drawing at once."""

    def sample(self, **members):
        request = {"id": 1, "op": "sample", "policy": {"jitter_factor": 0.5}, **members}
        return json.loads(adapter.answer_line(json.dumps(request).encode()))

    def test_threads_draw_count_values_inside_the_band(self):
        for count in (4096, 4099, 3):  # shares of 1024 each; one more for the first 3; 0 for one
            with self.subTest(count=count):
                answer = self.sample(delay=8, count=count, threads=4)
                self.assertTrue(answer["ok"], answer)
                draws = answer["result"]
                self.assertEqual(len(draws), count)
                self.assertTrue(all(4.0 <= x < 12.0 for x in draws), draws[:8])
                # 53-bit draws: a value shared between threads, or stuck, is a
                # broken source, not chance.
                self.assertEqual(len(set(draws)), count)

    def test_threads_with_attempt_give_up_alike(self):
        answer = self.sample(attempt=1, count=10, threads=3)
        self.assertEqual(answer["result"], [None] * 10)  # max_attempts 1 gives up

    def test_threads_out_of_range_or_not_an_integer_is_an_error_naming_threads(self):
        for threads in (0, 65, "x", 4.0, None, -1):
            with self.subTest(threads=threads):
                answer = self.sample(delay=8, count=8, threads=threads)
                self.assertFalse(answer["ok"])
                self.assertTrue(answer["error"].startswith("threads: "), answer["error"])

    def test_the_call_is_refused_before_any_thread_starts(self):
        self.assertTrue(self.sample(delay="NaN", count=8, threads=4)["error"].startswith("delay: "))
        self.assertTrue(self.sample(attempt=0, count=8, threads=4)["error"].startswith("attempt: "))

    def test_two_answers_with_threads_are_not_the_same_stream(self):
        first = self.sample(delay=8, count=64, threads=4)["result"]
        second = self.sample(delay=8, count=64, threads=4)["result"]
        self.assertNotEqual(first, second)
        self.assertFalse(set(first) & set(second))

    def test_each_process_draws_its_own_stream(self):
        # random.random is seeded from os.urandom when random is imported: two
        # adapters started at once must not share their first draws.
        line = b'{"id":1,"op":"sample","policy":{"jitter_factor":1},"delay":1,"count":4}\n'
        here = pathlib.Path(__file__).resolve().parent
        runs = [subprocess.Popen([sys.executable, str(here / "adapter.py")], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE) for _ in range(2)]
        first, second = (run.communicate(line)[0] for run in runs)
        self.assertIn(b'"ok":true', first)
        self.assertNotEqual(first, second)

    def test_one_thread_and_none_given_are_the_same_request(self):
        self.assertEqual(len(self.sample(delay=8, count=5, threads=1)["result"]), 5)
        self.assertEqual(len(self.sample(delay=8, count=5)["result"]), 5)


if __name__ == "__main__":
    unittest.main()
