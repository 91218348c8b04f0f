#!/usr/bin/env python3
"""python_schemata: every mutant of the Python port in one generated copy.

The Python port's counterpart of mutation/schemata.py and operators.py (which
do this for the C++ core with libclang): reads the port with the `ast` module,
finds every site an operator of TABLE applies to, and writes a runnable copy
of the port in which each site chooses at run time between the original and
each of its mutants:

    running > cap   becomes   (running >= cap if _M == 17 else (... else running > cap))
    break           becomes   if _M != 23: break

`_M` is ACEMQ_MUTANT, read once by the runtime `_acemq_mutant.py` (unset or
0: the port as it is, bit for bit). Only one mutant is active at a time, so a
mutant's arm is the original site with its one change, and the sites nested
inside it need no switches there.

Each mutated module holds its body twice, and the runtime picks one at
import. The fast copy, above, is for runs that do not trace: each function
with sites starts with `if _M in {its ids}:` and runs its original body
otherwise, so a run pays for its own mutant's function alone. The traced copy
(ACEMQ_MUTANT_TRACE names a file) asks `_on((17, 18))` the first time a site
is reached in a segment, which records its ids, and `17 in _S` after that.

Writes, into --out (never into --src): the copy of every file of the port,
`_acemq_mutant.py`, and manifest.json, each mutant with its id and stable key
`file | function | operator change | occurrence`.

  python_schemata.py --src conformance/adapters/python --out DIR
  python_schemata.py --src conformance/adapters/python --out DIR --files retry_policy.py
"""
import argparse
import ast
import copy
import dataclasses
import hashlib
import json
import math
import pathlib
import shutil
import sys

# The parts every mutation analysis here shares (mutation/framework.py).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from framework import Keys, Operator  # noqa: E402

# ---- the operators ---------------------------------------------------------------------
#
# An operator looks at one node of a file's syntax tree and adds the mutants it
# makes with `m.add(target, ctx, name, change, replacement)`: `replacement` is
# a new node that takes the place of `target` (an expression, or a statement).
# It is built from a copy of the original, never from the tree being walked.

SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
          ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-",
          ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.And: "and", ast.Or: "or"}
RELATIONAL = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
RELATIONAL_NEGATED = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt}
EQUALITY = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
         ast.FloorDiv: ast.Div}
LOGICAL = {ast.And: ast.Or, ast.Or: ast.And}


def swap_comparison(m, node, ctx, name, table):
    if not isinstance(node, ast.Compare):
        return
    for i, op in enumerate(node.ops):
        new = table.get(type(op))
        if new is not None:
            mutant = copy.deepcopy(node)
            mutant.ops[i] = new()
            m.add(node, ctx, name, f"{SYMBOL[type(op)]} -> {SYMBOL[new]}", mutant)


def relational(m, node, ctx):
    swap_comparison(m, node, ctx, "relational", RELATIONAL)


def relational_negated(m, node, ctx):
    swap_comparison(m, node, ctx, "relational-negated", RELATIONAL_NEGATED)


def equality(m, node, ctx):
    swap_comparison(m, node, ctx, "equality", EQUALITY)


def textual(node, sequences):
    """Whether + or * here joins strings, bytes or sequences, not numbers:
    swapping it for - or / is a TypeError on every run, which says nothing."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (str, bytes))
    if isinstance(node, (ast.JoinedStr, ast.List, ast.Tuple, ast.ListComp, ast.Dict, ast.Set)):
        return True
    if isinstance(node, ast.Name):
        return node.id in sequences
    if isinstance(node, ast.BinOp):
        return textual(node.left, sequences) or textual(node.right, sequences)
    return False


def arithmetic(m, node, ctx):
    if isinstance(node, ast.BinOp) and type(node.op) in ARITH:
        if textual(node.left, m.sequences) or textual(node.right, m.sequences):
            return
        mutant = copy.deepcopy(node)
        mutant.op = ARITH[type(node.op)]()
        m.add(node, ctx, "arithmetic", f"{SYMBOL[type(node.op)]} -> {SYMBOL[type(mutant.op)]}",
              mutant)
    elif isinstance(node, ast.AugAssign) and type(node.op) in ARITH:
        if textual(node.target, m.sequences) or textual(node.value, m.sequences):
            return
        mutant = copy.deepcopy(node)
        mutant.op = ARITH[type(node.op)]()
        m.add(node, ctx, "arithmetic",
              f"{SYMBOL[type(node.op)]}= -> {SYMBOL[type(mutant.op)]}=", mutant)


def logical(m, node, ctx):
    if not isinstance(node, ast.BoolOp):
        return
    # `a and b and c` is one node; each connective is swapped alone, grouped
    # from the left as Python evaluates it.
    values = node.values
    for k in range(1, len(values)):
        left = copy.deepcopy(values[0]) if k == 1 else ast.BoolOp(
            op=type(node.op)(), values=copy.deepcopy(values[:k]))
        swapped = ast.BoolOp(op=LOGICAL[type(node.op)](),
                             values=[left, copy.deepcopy(values[k])])
        rest = copy.deepcopy(values[k + 1:])
        mutant = ast.BoolOp(op=type(node.op)(), values=[swapped] + rest) if rest else swapped
        m.add(node, ctx, "logical", f"{SYMBOL[type(node.op)]} -> "
              f"{SYMBOL[LOGICAL[type(node.op)]]}", mutant)


def number_literal(node):
    """The value of a numeric literal, a negative one included, else None."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        operand = node.operand
        if isinstance(operand, ast.Constant) and type(operand.value) in (int, float):
            return -operand.value
    return None


def constant_variants(value):
    """n -> n + 1, n - 1 (0 -> 1 only, as in the core); x -> x + 1, x - 1
    (0.0 -> 1.0, -1.0), dropping a change binary64 cannot hold; and for a
    scaling power of two, 2^(e +- 1), since x +- 1 hardly moves 2^53."""
    if isinstance(value, int):
        return [value + 1] + ([value - 1] if value != 0 else [])
    if value == 0.0:
        return [1.0, -1.0]
    out = [v for v in (value + 1.0, value - 1.0) if v != value]
    mantissa, _ = math.frexp(abs(value))
    if mantissa == 0.5 and abs(value) >= 2.0 ** 16:
        out += [value * 2.0, value / 2.0]
    return list(dict.fromkeys(out))


def spell(value, like):
    """`value` written as the literal `like` is: hexadecimal stays hexadecimal."""
    if isinstance(value, int) and like.lstrip("-").lower().startswith("0x"):
        digits = format(abs(value), "X" if any(c in "ABCDEF" for c in like) else "x")
        return ("-" if value < 0 else "") + "0x" + digits
    return repr(value)


def literal_node(value):
    # A negative value as unary minus, so that unparse brackets it where needed.
    if value < 0 or (isinstance(value, float) and math.copysign(1.0, value) < 0):
        return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(-value))
    return ast.Constant(value)


def constant(m, node, ctx):
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        m.add(node, ctx, "constant", f"{node.value} -> {not node.value}",
              ast.Constant(not node.value))
        return
    value = number_literal(node)
    if value is None:
        return
    if isinstance(node, ast.Constant) and m.folded_negative(ctx):
        return  # the literal of -1: its unary minus is the site
    spelling = m.segment(node) or ast.unparse(node)
    for new in constant_variants(value):
        m.add(node, ctx, "constant", f"{spelling} -> {spell(new, spelling)}", literal_node(new))


def negation_removed(m, node, ctx):
    if not isinstance(node, ast.UnaryOp):
        return
    if isinstance(node.op, ast.Not):
        m.add(node, ctx, "negation-removed", "not x -> x", copy.deepcopy(node.operand))
    elif isinstance(node.op, ast.USub) and number_literal(node) is None:
        m.add(node, ctx, "negation-removed", "-x -> x", copy.deepcopy(node.operand))


def ternary_arms(m, node, ctx):
    if not isinstance(node, ast.IfExp) or ast.dump(node.body) == ast.dump(node.orelse):
        return
    m.add(node, ctx, "ternary-arms", "a if c else b -> a", copy.deepcopy(node.body))
    m.add(node, ctx, "ternary-arms", "a if c else b -> b", copy.deepcopy(node.orelse))


def called(node, *names):
    """The name a call is made by (`f(...)`, `mod.f(...)`), if it is one of `names`."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    return name if name in names else None


def min_max(m, node, ctx):
    name = called(node, "min", "max")
    if name is None or not isinstance(node.func, ast.Name):
        return
    other = "max" if name == "min" else "min"
    mutant = copy.deepcopy(node)
    mutant.func.id = other
    m.add(node, ctx, "min-max", f"{name} -> {other}", mutant)


def bits_to_values(m, node, ctx):
    name = called(node, "same_bits", "_same_bits")
    if name is not None and len(node.args) == 2 and not node.keywords:
        m.add(node, ctx, "bits-to-values", f"{name}(a, b) -> a == b",
              ast.Compare(left=copy.deepcopy(node.args[0]), ops=[ast.Eq()],
                          comparators=[copy.deepcopy(node.args[1])]))
        return
    if not isinstance(node, ast.Compare):
        return
    operands = [node.left] + node.comparators
    ops = " ".join(SYMBOL.get(type(op), "?") for op in node.ops)
    packs = [called(x, "pack") and len(x.args) == 2 for x in operands]
    if len(operands) == 2 and all(packs) and type(node.ops[0]) in (ast.Eq, ast.NotEq):
        m.add(node, ctx, "bits-to-values", f"pack(a) {ops} pack(b) -> a {ops} b",
              ast.Compare(left=copy.deepcopy(node.left.args[1]), ops=[copy.deepcopy(node.ops[0])],
                          comparators=[copy.deepcopy(node.comparators[0].args[1])]))
        return
    # The sign test of a zero, math.copysign(1.0, x) < 0, tidied into x < 0.
    signs = [called(x, "copysign") and len(x.args) == 2 for x in operands]
    if not any(signs):
        return
    letters, before, after, replaced = iter("abcdefgh"), [], [], []
    for x, is_sign in zip(operands, signs):
        if is_sign:
            letter = next(letters)
            before.append(f"copysign({ast.unparse(x.args[0])}, {letter})")
            after.append(letter)
            replaced.append(copy.deepcopy(x.args[1]))
        else:
            before.append(ast.unparse(x))
            after.append(ast.unparse(x))
            replaced.append(copy.deepcopy(x))

    def spelled(parts):
        words = [parts[0]]
        for op, part in zip(node.ops, parts[1:]):
            words += [SYMBOL.get(type(op), "?"), part]
        return " ".join(words)
    m.add(node, ctx, "bits-to-values", f"{spelled(before)} -> {spelled(after)}",
          ast.Compare(left=replaced[0], ops=copy.deepcopy(node.ops), comparators=replaced[1:]))


def pure(node):
    """Whether an expression may be evaluated twice: no call, no draw, no walrus."""
    return not any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom,
                                  ast.Lambda)) for n in ast.walk(node))


def product_distributed(m, node, ctx):
    if not isinstance(node, ast.BinOp) or not isinstance(node.op, ast.Mult):
        return
    if textual(node.left, m.sequences) or textual(node.right, m.sequences):
        return
    for factor, total, factor_first in ((node.left, node.right, True),
                                        (node.right, node.left, False)):
        if not (isinstance(total, ast.BinOp) and isinstance(total.op, (ast.Add, ast.Sub))):
            continue
        if not pure(factor):
            continue  # a factor with a call would be called twice

        def times(term):
            pair = [copy.deepcopy(factor), copy.deepcopy(term)]
            return ast.BinOp(left=pair[0 if factor_first else 1], op=ast.Mult(),
                             right=pair[1 if factor_first else 0])
        sign = SYMBOL[type(total.op)]
        change = (f"a * (b {sign} c) -> a * b {sign} a * c" if factor_first else
                  f"(b {sign} c) * a -> b * a {sign} c * a")
        m.add(node, ctx, "product-distributed", change,
              ast.BinOp(left=times(total.left), op=type(total.op)(), right=times(total.right)))


DELETED = {ast.Break: "break", ast.Continue: "continue", ast.Return: "return",
           ast.Raise: "raise", ast.Assign: "assignment", ast.AugAssign: "assignment",
           ast.AnnAssign: "assignment", ast.Expr: "call"}
EARLY_EXIT_PARENTS = (ast.If, ast.For, ast.While, ast.AsyncFor)


def statement_deleted(m, node, ctx):
    kind = DELETED.get(type(node))
    if kind is None or not ctx.in_function:
        return
    if kind in ("return", "raise") and not isinstance(ctx.parent, EARLY_EXIT_PARENTS):
        return  # only an early exit: the last return of a function is return-default's
    if kind == "call" and not isinstance(node.value, ast.Call):
        return  # a docstring, or a yield, which the protocol's loop cannot do without
    if isinstance(node, ast.AnnAssign) and node.value is None:
        return
    m.add(node, ctx, "statement-deleted", f"{kind} -> nothing", ast.Pass())


def return_default(m, node, ctx):
    if not isinstance(node, ast.Return) or node.value is None:
        return
    if isinstance(node.value, ast.Constant) and node.value.value is None:
        return  # already the default: the same program
    m.add(node, ctx, "return-default", "return x -> return None",
          ast.Return(value=ast.Constant(None)))


def condition_negated(m, node, ctx):
    if not isinstance(node, (ast.If, ast.While, ast.IfExp)):
        return
    if isinstance(node.test, ast.Constant):
        return  # `while True`: constant already swaps True for False
    m.add(node.test, ctx, "condition-negated", "c -> not c",
          ast.UnaryOp(op=ast.Not(), operand=copy.deepcopy(node.test)))


def loop_bound_off_by_one(m, node, ctx):
    if called(node, "range") is None or not isinstance(node.func, ast.Name):
        return
    if not 1 <= len(node.args) <= 3 or node.keywords:
        return
    stop = node.args[0] if len(node.args) == 1 else node.args[1]
    if number_literal(stop) is not None:
        return  # constant already moves a literal bound by one
    for op, sign in ((ast.Add, "+"), (ast.Sub, "-")):
        m.add(stop, ctx, "loop-bound-off-by-one", f"range(n) -> range(n {sign} 1)",
              ast.BinOp(left=copy.deepcopy(stop), op=op(), right=ast.Constant(1)))


TABLE = [
    Operator("relational", "a boundary moved by one: the inclusive age limit, the last attempt, "
             "the cap's strict >, the range of r", relational),
    Operator("relational-negated", "a comparison turned round, as when a condition is rewritten "
             "from `if bad: raise` to `if good:`", relational_negated),
    Operator("equality", "== and != (is and is not) swapped: a zero test, a fixed point, a "
             "None check", equality),
    Operator("arithmetic", "+ - * / // swapped, in an expression or an augmented assignment: the "
             "jitter's arithmetic, the parity, the draw's scaling, Python 2's //", arithmetic),
    Operator("logical", "and and or swapped: a validation rule or a guard weakened or "
             "strengthened", logical),
    Operator("constant", "a number moved by one (n +- 1, x +- 1, 2^(e +- 1) for a scale), True "
             "and False swapped: a default, a factory's value, a mask of the generator", constant),
    Operator("negation-removed", "a `not` or a unary minus dropped: a NaN guard, the sign of "
             "zero", negation_removed),
    Operator("ternary-arms", "a conditional expression reduced to one arm: the cap taken "
             "always, or never", ternary_arms),
    Operator("min-max", "min and max swapped: a clamp turned round, as Ruby's [a, b].max "
             "invites in a port (the port calls neither today)", min_max),
    Operator("bits-to-values", "a bit comparison (same_bits, struct.pack, copysign) tidied into "
             "a value comparison, which loses -0.0 against 0.0", bits_to_values),
    Operator("statement-deleted", "a statement dropped: an assignment, a call, a break, an "
             "early return or raise", statement_deleted),
    Operator("return-default", "a function returns None instead of its value",
             return_default),
    Operator("condition-negated", "the condition of an if, a while or a conditional expression "
             "negated", condition_negated),
    Operator("product-distributed", "a * (b + c) multiplied out to a*b + a*c: the same real "
             "number, rounded differently, as a refactor of the jitter makes it",
             product_distributed),
    Operator("loop-bound-off-by-one", "range(n) one too long or one short: one multiplication "
             "too many or too few", loop_bound_off_by_one),
]


def apply_all(m, node, ctx):
    for operator in TABLE:
        operator.apply(m, node, ctx)


# ---- sites and the walk ------------------------------------------------------------------

@dataclasses.dataclass
class Mutant:
    operator: str
    change: str
    node: ast.AST       # what takes the site's place
    id: int = 0
    key: str = ""
    occurrence: int = 0


@dataclasses.dataclass
class Site:
    node: ast.AST
    function: str
    fingerprint: str
    order: tuple
    mutants: list = dataclasses.field(default_factory=list)

    @property
    def statement(self):
        return isinstance(self.node, ast.stmt)


@dataclasses.dataclass(frozen=True)
class Context:
    function: str = "<module>"
    fingerprint: str = ""
    scope: str = ""             # the qualified name of the class or function we are in
    in_function: bool = False   # in a function's body (its defaults are not)
    parent: object = None


def fingerprint(node):
    dump = ast.dump(node, annotate_fields=True, include_attributes=False)
    return hashlib.sha256(dump.encode()).hexdigest()


def is_main_guard(node):
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__")


def assigns_to(node, names):
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return any(isinstance(t, ast.Name) and t.id in names for t in targets)


# Fields whose expressions a mutant has no business in: annotations.
SKIPPED_FIELDS = {"annotation", "returns", "type_comment"}


class FileMutator:
    def __init__(self, relpath, source):
        self.relpath = relpath
        self.source = source
        self.tree = ast.parse(source, filename=relpath)
        self.sites = {}     # id(node) -> Site
        self.order = {}     # id(node) -> its place in a pre-order walk, to break ties
        for i, n in enumerate(preorder(self.tree)):
            self.order[id(n)] = i
        # Module-level names bound to a literal tuple, list, dict or string.
        self.sequences = {t.id for n in self.tree.body if isinstance(n, ast.Assign)
                          and textual(n.value, set()) for t in n.targets if isinstance(t, ast.Name)}

    # ---- what the operators use --------------------------------------------

    def segment(self, node):
        return ast.get_source_segment(self.source, node)

    def folded_negative(self, ctx):
        p = ctx.parent
        return isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.USub)

    def add(self, target, ctx, operator, change, replacement):
        site = self.sites.get(id(target))
        if site is None:
            order = (target.lineno, target.col_offset, -target.end_lineno,
                     -target.end_col_offset, self.order[id(target)])
            site = Site(target, ctx.function, ctx.fingerprint, order)
            self.sites[id(target)] = site
        site.mutants.append(Mutant(operator, change, replacement))

    # ---- the walk ------------------------------------------------------------

    def collect(self):
        self._visit(self.tree, Context(fingerprint=fingerprint(self.tree)))
        return sorted(self.sites.values(), key=lambda s: s.order)

    def _visit(self, node, ctx):
        for field, value in ast.iter_fields(node):
            if field in SKIPPED_FIELDS:
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    self._child(node, field, child, ctx)

    def _child(self, parent, field, node, ctx):
        if isinstance(node, (ast.JoinedStr, ast.Import, ast.ImportFrom)):
            return  # message text and imports: nothing a slip there shows
        if is_main_guard(node) or (isinstance(node, (ast.Assign, ast.AnnAssign)) and
                                   assigns_to(node, {"__slots__", "__all__"})):
            return
        inner = dataclasses.replace(ctx, parent=parent)
        if isinstance(parent, (ast.Module, ast.ClassDef)) and isinstance(node, ast.stmt):
            # Outside functions, a site's fingerprint is its top-level statement's.
            inner = dataclasses.replace(inner, fingerprint=fingerprint(node))
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and field == "body":
            inner = dataclasses.replace(inner, in_function=True)
        apply_all(self, node, inner)
        below = dataclasses.replace(inner, parent=None)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = f"{ctx.scope}.{node.name}" if ctx.scope else node.name
            below = dataclasses.replace(below, scope=name, in_function=False)
            if isinstance(node, ast.ClassDef):
                below = dataclasses.replace(below, function=name)
            else:
                below = dataclasses.replace(below, function=name, fingerprint=fingerprint(node))
        self._visit(node, below)


def preorder(node):
    yield node
    for child in ast.iter_child_nodes(node):
        yield from preorder(child)


# ---- writing the schemata ----------------------------------------------------------------

RUNTIME_MODULE = "_acemq_mutant"
RUNTIME = '''"""Generated by mutation/ports/python_schemata.py: the switch every mutant site asks.

ACEMQ_MUTANT=<id> activates one mutant (unset or 0: none). ACEMQ_MUTANT_TRACE=<path>
appends to <path> the id of each site's mutants the first time the site is
reached since the last "L" line, which the request loop writes as each request
begins; every write goes straight to the file, so a crash loses nothing.
"""
import os
import sys


def _active():
    text = os.environ.get("ACEMQ_MUTANT", "").strip()
    try:
        value = int(text) if text else 0
    except ValueError:
        value = -1
    if value < 0:
        sys.exit(f"_acemq_mutant: ACEMQ_MUTANT must be an integer >= 0, got {text!r}")
    return value


ACTIVE = _active()
_PATH = os.environ.get("ACEMQ_MUTANT_TRACE", "")
TRACING = bool(_PATH)
_fd = os.open(_PATH, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644) if TRACING else -1
# The ids recorded since the last L; cleared in place, since the modules hold it.
seen = set()


def _traced_on(ids):
    """Records a site's switches: each id of the chain up to the active one."""
    for mutant_id in ids:
        if mutant_id not in seen:
            seen.add(mutant_id)
            os.write(_fd, b"%d\\n" % mutant_id)
        if mutant_id == ACTIVE:
            break
    return ids[0] == ACTIVE


def segment():
    """A request begins: a new segment of the trace."""
    seen.clear()
    os.write(_fd, b"L\\n")


def _untraced_on(ids):
    return ids[0] == ACTIVE


# Untraced, the modules use their fast copy, which compares with ACTIVE
# directly and never asks `on`.
on = _traced_on if TRACING else _untraced_on
'''

HEADER_NAMES = ("_acemq", "_M", "_on", "_S")


class Instrumenter:
    """A copy of a tree with every site switched, in one of two styles: "fast"
    (`_M == id`) or "traced" (`_on(id)`, which records the id)."""

    def __init__(self, sites, style, loop_node):
        self.sites = {id(s.node): s for s in sites}
        self.style = style
        self.loop_node = loop_node

    def is_active(self, mutant_id):
        return ast.Compare(left=ast.Name("_M", ast.Load()), ops=[ast.Eq()],
                           comparators=[ast.Constant(mutant_id)])

    def tests(self, site):
        """The switch of each of the site's mutants, in the order they are asked."""
        ids = [m.id for m in site.mutants]
        tests = [self.is_active(i) for i in ids]
        if self.style == "traced":
            # The first switch records the site: every id up to the active
            # one, which are the switches the chain asks. Once recorded in
            # this segment it costs a set lookup, not a call, since a traced
            # loop of 2^20 steps would otherwise spend seconds in _on.
            recorded = ast.Compare(left=ast.Constant(ids[0]), ops=[ast.In()],
                                   comparators=[ast.Name("_S", ast.Load())])
            call = ast.Call(func=ast.Name("_on", ast.Load()),
                            args=[ast.Tuple([ast.Constant(i) for i in ids], ast.Load())],
                            keywords=[])
            tests[0] = ast.IfExp(test=recorded, body=tests[0], orelse=call)
        return tests

    def rebuild(self, node):
        if isinstance(node, list):
            return [self.rebuild(n) for n in node]
        if not isinstance(node, ast.AST):
            return node
        new = type(node)(**{f: self.rebuild(v) for f, v in ast.iter_fields(node)})
        if node is self.loop_node and self.style == "traced":
            mark = ast.Expr(ast.Call(func=ast.Attribute(ast.Name("_acemq", ast.Load()), "segment",
                                                        ast.Load()), args=[], keywords=[]))
            new.body.insert(0, mark)
        if self.style == "fast" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.dispatch(node, new)
        site = self.sites.get(id(node))
        return self.wrap(site, new) if site is not None else new

    def dispatch(self, node, new):
        """A function with sites runs its original body unless the active
        mutant is one of them: a mutant run pays for the switches of its own
        function alone, and a run with no mutant for one set lookup a call."""
        ids = sorted(m.id for stmt in node.body for n in preorder(stmt)
                     if id(n) in self.sites for m in self.sites[id(n)].mutants)
        if not ids:
            return
        head = []
        body, original = list(new.body), copy.deepcopy(node.body)
        if is_docstring(original[0]):
            head.append(original.pop(0))
            body.pop(0)
        # A global or nonlocal statement must come before any use in either copy.
        for copy_ in (body, original):
            for stmt in [s for s in copy_ if isinstance(s, (ast.Global, ast.Nonlocal))]:
                copy_.remove(stmt)
                if copy_ is original:
                    head.append(stmt)
        test = ast.Compare(left=ast.Name("_M", ast.Load()), ops=[ast.In()],
                           comparators=[ast.Set([ast.Constant(i) for i in ids])])
        new.body = head + [ast.If(test=test, body=body or [ast.Pass()],
                                  orelse=original or [ast.Pass()])]

    def wrap(self, site, original):
        tests = self.tests(site)
        if not site.statement:
            expr = original
            for m, test in reversed(list(zip(site.mutants, tests))):
                expr = ast.IfExp(test=test, body=copy.deepcopy(m.node), orelse=expr)
            return expr
        if len(site.mutants) == 1 and isinstance(site.mutants[0].node, ast.Pass):
            test = tests[0]
            off = (ast.Compare(left=test.left, ops=[ast.NotEq()], comparators=test.comparators)
                   if isinstance(test, ast.Compare) else ast.UnaryOp(op=ast.Not(), operand=test))
            return ast.If(test=off, body=[original], orelse=[])
        chain = [original]
        for m, test in reversed(list(zip(site.mutants, tests))):
            chain = [ast.If(test=test, body=[copy.deepcopy(m.node)], orelse=chain)]
        return chain[0]


def is_docstring(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


def first_loop(tree, name):
    """The first `for` in the function named `name` (a plain or qualified name)."""
    def functions(node, scope):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualified = f"{scope}.{child.name}" if scope else child.name
                if not isinstance(child, ast.ClassDef) and name in (child.name, qualified):
                    yield child
                yield from functions(child, qualified)
    for function in functions(tree, ""):
        loops = [n for n in preorder(function) if isinstance(n, (ast.For, ast.AsyncFor))]
        if loops:
            return min(loops, key=lambda n: (n.lineno, n.col_offset))
    return None


def schemata_source(mutator, sites, loop_node, origin):
    tree = mutator.tree
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    clash = used & set(HEADER_NAMES + (RUNTIME_MODULE,))
    if clash:
        raise SystemExit(f"python_schemata: {mutator.relpath} already uses {sorted(clash)}")
    body = list(tree.body)
    head = []
    if body and is_docstring(body[0]):
        head.append(body.pop(0))  # the docstring stays the module's docstring
    while body and isinstance(body[0], ast.ImportFrom) and body[0].module == "__future__":
        head.append(body.pop(0))
    runtime = ast.parse(f"import {RUNTIME_MODULE} as _acemq\n_M = _acemq.ACTIVE\n"
                        "_on = _acemq.on\n_S = _acemq.seen\n").body
    fast = Instrumenter(sites, "fast", loop_node).rebuild(body)
    traced = Instrumenter(sites, "traced", loop_node).rebuild(body)
    choose = ast.If(test=ast.UnaryOp(op=ast.Not(), operand=ast.Attribute(
        ast.Name("_acemq", ast.Load()), "TRACING", ast.Load())), body=fast, orelse=traced)
    module = ast.fix_missing_locations(ast.Module(body=head + runtime + [choose],
                                                  type_ignores=[]))
    shebang = mutator.source.split("\n", 1)[0] + "\n" if mutator.source.startswith("#!") else ""
    return (f"{shebang}# Generated by mutation/ports/python_schemata.py from {origin}: "
            "every mutant behind a switch. Do not edit.\n" + ast.unparse(module) + "\n")


def check_mutant(site, m):
    """Every mutant must be Python on its own: unparse it and parse it back."""
    text = ast.unparse(m.node)
    try:
        ast.parse(text, mode="exec" if site.statement else "eval")
    except SyntaxError as e:
        raise SystemExit(f"python_schemata: {m.key}: {text!r} is not Python: {e}") from None


def generate(src, files):
    """Every site of every file, each mutant numbered and keyed."""
    mutators = []
    next_id = 1
    keys = Keys()
    for rel in files:
        mutator = FileMutator(rel, (src / rel).read_text())
        sites = mutator.collect()
        for site in sites:
            for m in site.mutants:
                m.id = next_id
                next_id += 1
                m.key, m.occurrence = keys.key(pathlib.PurePath(rel).name, site.function,
                                               m.operator, m.change)
                check_mutant(site, m)
        mutators.append((mutator, sites))
    return mutators


def manifest_entry(relpath, site, m):
    return {"id": m.id, "key": m.key, "file": relpath, "line": site.node.lineno,
            "function": site.function, "operator": m.operator, "change": m.change,
            "occurrence": m.occurrence, "original": ast.unparse(site.node),
            "mutant": ast.unparse(m.node), "fingerprint": site.fingerprint}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", required=True, type=pathlib.Path, help="the port's folder")
    parser.add_argument("--out", required=True, type=pathlib.Path, help="where the copy goes")
    parser.add_argument("--files", nargs="+", default=["retry_policy.py", "adapter.py"],
                        help="the files to mutate, relative to --src")
    parser.add_argument("--loop", default="serve",
                        help="the function whose first `for` is the request loop (trace's L)")
    args = parser.parse_args(argv)
    src, out = args.src.resolve(), args.out.resolve()
    if out == src or src in out.parents:
        parser.error("--out must be outside --src: the port itself is never written")
    for rel in args.files:
        if not (src / rel).is_file():
            parser.error(f"--files: no {rel} in {src}")

    mutators = generate(src, args.files)
    # The request loop may sit in a file that is not mutated: it is rewritten
    # all the same, with no sites, so that the trace has its L lines.
    by_file = {m.relpath: (m, sites) for m, sites in mutators}
    loop_file = loop_node = None
    candidates = list(args.files) + sorted(str(p.relative_to(src)) for p in src.rglob("*.py")
                                           if str(p.relative_to(src)) not in args.files)
    for rel in candidates:
        if rel not in by_file:
            by_file[rel] = (FileMutator(rel, (src / rel).read_text()), [])
        node = first_loop(by_file[rel][0].tree, args.loop)
        if node is not None:
            loop_file, loop_node = rel, node
            break
    if loop_node is None:
        parser.error(f"--loop: no function {args.loop} with a for loop in {src}")

    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / "__pycache__", ignore_errors=True)
    rewritten = set(args.files) | {loop_file}
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if "__pycache__" in rel.parts or not path.is_file():
            continue
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if str(rel) in rewritten:
            mutator, sites = by_file[str(rel)]
            text = schemata_source(mutator, sites, loop_node if str(rel) == loop_file else None,
                                   str(args.src / rel))
            compile(text, str(target), "exec")
            target.write_text(text)
            shutil.copymode(path, target)
        else:
            shutil.copy2(path, target)
    (out / f"{RUNTIME_MODULE}.py").write_text(RUNTIME)

    entries = [manifest_entry(mutator.relpath, site, m)
               for mutator, sites in mutators for site in sites for m in site.mutants]
    manifest = {"port": "python", "generator": "mutation/ports/python_schemata.py",
                "mutants": entries}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")

    counts = {op.name: 0 for op in TABLE}
    for e in entries:
        counts[e["operator"]] += 1
    print(f"python_schemata: {len(entries)} mutants in {len(args.files)} files ("
          + ", ".join(f"{name} {n}" for name, n in counts.items()) + f") -> {out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
