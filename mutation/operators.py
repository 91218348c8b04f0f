"""operators: every mutation operator, in one table, each with its reason.

An operator looks at one node of the core's syntax tree (libclang) and adds
the mutants it makes there with `m.add(node, kind, context, name, change,
text)`: `text` is the node's source with the one change made. Each mutant
must compile whatever the others do, since all are built at once: operators
only make changes that keep the expression's type (schemata.py wraps each
site as `(on(id) ? changed : original)`).

The first operators are the classic ones (scripts/mutate had them); the last
are the slips a maintainer of the shared arithmetic makes in a refactor.
"""
import re
from decimal import Decimal

import clang.cindex as ci

from framework import Operator

K = ci.CursorKind
T = ci.TypeKind
ARITHMETIC_TYPES = {T.BOOL, T.CHAR_S, T.CHAR_U, T.SCHAR, T.UCHAR, T.SHORT, T.USHORT, T.INT, T.UINT,
                    T.LONG, T.ULONG, T.LONGLONG, T.ULONGLONG, T.FLOAT, T.DOUBLE, T.LONGDOUBLE}


def strip(node):
    while node.c.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR) and len(node.children()) == 1:
        node = node.children()[0]
    return node


def binary_operator(node):
    """(lhs, operator token, rhs) of a built-in binary operator, or None."""
    children = node.children()
    if len(children) != 2:
        return None
    lhs, rhs = children
    for t in node.tokens():
        if t.extent.start.offset >= lhs.end:
            if t.extent.start.offset >= rhs.start:
                return None
            return lhs, t, rhs
    return None


def overloaded_comparison(node):
    """(lhs, operator token, rhs) of `a == b` calling a class's operator==."""
    if node.c.kind != K.CALL_EXPR or node.c.spelling not in ("operator==", "operator!="):
        return None
    children = node.children()
    if len(children) < 2:
        return None
    lhs, rhs = children[0], children[-1]
    for t in node.tokens():
        if lhs.end <= t.extent.start.offset < rhs.start and t.spelling in ("==", "!="):
            return lhs, t, rhs
    return None


# Calls with no side effect, which a traced run may evaluate twice.
PURE_CALLS = {"isnan", "isfinite", "signbit", "bit_cast", "count", "operator==", "operator!=",
              "duration"}
INTEGER_TYPES = ARITHMETIC_TYPES - {T.FLOAT, T.DOUBLE, T.LONGDOUBLE, T.BOOL}


def pure(node):
    """Whether a site may be evaluated with its mutants side by side: a
    built-in type, no call with effects, no assignment or ++, and no
    integer * / % (a mutant there might divide by zero)."""
    kind = node.c.type.get_canonical().kind
    if kind not in ARITHMETIC_TYPES:
        return False
    for c in node.c.walk_preorder():
        if c.kind == K.CALL_EXPR and c.spelling not in PURE_CALLS:
            return False
        if c.kind in (K.COMPOUND_ASSIGNMENT_OPERATOR, K.LAMBDA_EXPR):
            return False
        if c.kind in (K.UNARY_OPERATOR, K.BINARY_OPERATOR):
            spelled = [t.spelling for t in c.get_tokens()]
            if any(t in ("++", "--", "=") for t in spelled):
                return False
            if kind in INTEGER_TYPES and any(t in ("*", "/", "%") for t in spelled):
                return False
    return True


def arithmetic(node):
    return node.c.type.get_canonical().kind in ARITHMETIC_TYPES


def swap_token(m, node, ctx, name, token, new, kind="expr"):
    start, end = token.extent.start.offset, token.extent.end.offset
    m.add(node, kind, ctx, name, f"{token.spelling} -> {new}", m.replace_in(node, start, end, new))


# ---- the classic operators ----------------------------------------------------

RELATIONAL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
EQUALITY = {"==": "!=", "!=": "=="}
ARITH = {"+": "-", "-": "+", "*": "/", "/": "*"}
LOGICAL = {"&&": "||", "||": "&&"}


def relational(m, node, ctx):
    if node.c.kind == K.BINARY_OPERATOR and (parts := binary_operator(node)):
        if parts[1].spelling in RELATIONAL:
            swap_token(m, node, ctx, "relational", parts[1], RELATIONAL[parts[1].spelling])


def equality(m, node, ctx):
    parts = None
    if node.c.kind == K.BINARY_OPERATOR:
        parts = binary_operator(node)
    elif node.c.kind == K.CALL_EXPR:
        parts = overloaded_comparison(node)
    if parts and parts[1].spelling in EQUALITY:
        if is_bits_comparison(parts):
            return  # bits-to-values and the flip of == together cover it
        swap_token(m, node, ctx, "equality", parts[1], EQUALITY[parts[1].spelling])


def arithmetic_operator(m, node, ctx):
    if node.c.kind == K.BINARY_OPERATOR and (parts := binary_operator(node)):
        lhs, op, rhs = parts
        if op.spelling in ARITH and arithmetic(node) and arithmetic(lhs) and arithmetic(rhs):
            swap_token(m, node, ctx, "arithmetic", op, ARITH[op.spelling])


def logical(m, node, ctx):
    if node.c.kind == K.BINARY_OPERATOR and (parts := binary_operator(node)):
        if parts[1].spelling in LOGICAL:
            swap_token(m, node, ctx, "logical", parts[1], LOGICAL[parts[1].spelling])


def constant_variants(text):
    """n -> n + 1, n - 1; x -> x + 1, x - 1 (0.0 -> 1.0, -1.0); 2^e -> 2^(e +- 1)."""
    body = text.replace("'", "")
    hexfloat = re.fullmatch(r"(0[xX][0-9a-fA-F.]+[pP])([+-]?\d+)", body)
    if hexfloat:
        e = int(hexfloat.group(2))
        return [f"{hexfloat.group(1)}{e + 1}", f"{hexfloat.group(1)}{e - 1}"]
    integer = re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)", body)
    if integer:
        value, suffix = int(integer.group(1), 0), integer.group(2)
        return [f"{v}{suffix}" for v in [value + 1] + ([value - 1] if value > 0 else [])]
    decimal = re.fullmatch(r"(\d*\.?\d*(?:[eE][+-]?\d+)?)([fFlL]?)", body)
    if decimal:
        value = Decimal(decimal.group(1))
        if value == 0:
            return ["1.0", "-1.0"]

        def show(d):
            s = format(d, "f")
            return s if "." in s else s + ".0"
        return [show(value + 1) + decimal.group(2), show(value - 1) + decimal.group(2)]
    return []


def constant(m, node, ctx):
    if node.c.kind in (K.INTEGER_LITERAL, K.FLOATING_LITERAL):
        tokens = node.tokens()
        if len(tokens) != 1:
            return
        for new in constant_variants(tokens[0].spelling):
            text = new if not new.startswith("-") else f"({new})"
            m.add(node, "expr", ctx, "constant", f"{tokens[0].spelling} -> {new}", text)
    elif node.c.kind == K.CXX_BOOL_LITERAL_EXPR:
        spelled = node.tokens()[0].spelling
        new = "false" if spelled == "true" else "true"
        m.add(node, "expr", ctx, "constant", f"{spelled} -> {new}", new)


def negation_removed(m, node, ctx):
    if node.c.kind != K.UNARY_OPERATOR:
        return
    tokens = node.tokens()
    if not tokens or tokens[0].spelling not in ("!", "-"):
        return
    operand = node.children()[0] if node.children() else None
    if operand is None:
        return
    if tokens[0].spelling == "-" and not arithmetic(node):
        return
    m.add(node, "cond" if tokens[0].spelling == "!" else "expr", ctx, "negation-removed",
          f"{tokens[0].spelling}x -> x", operand.text)


def increment(m, node, ctx):
    if node.c.kind != K.UNARY_OPERATOR:
        return
    tokens = node.tokens()
    for t in (tokens[0], tokens[-1]) if tokens else ():
        if t.spelling in ("++", "--"):
            swap_token(m, node, ctx, "increment", t, "--" if t.spelling == "++" else "++")
            return


def ternary_arms(m, node, ctx):
    if node.c.kind != K.CONDITIONAL_OPERATOR:
        return
    parts = node.children()
    if len(parts) != 3 or parts[1].text == parts[2].text:
        return
    cond, yes, no = parts
    text = (m.source[node.start:yes.start] + no.text + m.source[yes.end:no.start] + yes.text +
            m.source[no.end:node.end])
    m.add(node, "expr", ctx, "ternary-arms", "c ? a : b -> c ? b : a", text)


def min_max(m, node, ctx):
    if node.c.kind != K.CALL_EXPR or node.c.spelling not in ("min", "max"):
        return
    for t in node.tokens():
        if t.spelling in ("min", "max"):
            swap_token(m, node, ctx, "min-max", t, "max" if t.spelling == "min" else "min")
            return


def is_bits_comparison(parts):
    lhs, _, rhs = parts
    return all(strip(side).c.kind == K.CALL_EXPR and strip(side).c.spelling == "bit_cast"
               for side in (lhs, rhs))


def bits_to_values(m, node, ctx):
    if node.c.kind != K.BINARY_OPERATOR or not (parts := binary_operator(node)):
        return
    if parts[1].spelling not in EQUALITY or not is_bits_comparison(parts):
        return
    lhs, op, rhs = parts
    args = [list(strip(side).c.get_arguments()) for side in (lhs, rhs)]
    if any(len(a) != 1 for a in args):
        return
    text = lambda c: m.source[c.extent.start.offset:c.extent.end.offset]  # noqa: E731
    m.add(node, "cond", ctx, "bits-to-values", f"bit_cast(a) {op.spelling} bit_cast(b) -> a "
          f"{op.spelling} b", f"({text(args[0][0])}) {op.spelling} ({text(args[1][0])})")
    swap_token(m, node, ctx, "equality", op, EQUALITY[op.spelling], kind="cond")


# ---- statements and returns ---------------------------------------------------------

DELETABLE = {K.CALL_EXPR, K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.UNARY_OPERATOR,
             K.BREAK_STMT, K.CONTINUE_STMT, K.IF_STMT, K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR}


def statement_children(node):
    """The statements directly inside a block, or the body of if/for/while."""
    if node.c.kind == K.COMPOUND_STMT:
        return node.children()
    children = node.children()
    if node.c.kind == K.IF_STMT:
        return [c for c in children[1:] if c.c.kind != K.COMPOUND_STMT]
    if node.c.kind in (K.FOR_STMT, K.WHILE_STMT, K.CXX_FOR_RANGE_STMT) and children:
        return [] if children[-1].c.kind == K.COMPOUND_STMT else children[-1:]
    return []


def statement_deleted(m, node, ctx):
    if ctx.noreturn or not ctx.function:
        return
    for child in statement_children(node):
        if child.c.kind not in DELETABLE:
            continue
        if child.c.kind == K.UNARY_OPERATOR and not any(
                t.spelling in ("++", "--") for t in child.tokens()[:1] + child.tokens()[-1:]):
            continue
        if child.c.kind == K.BINARY_OPERATOR and (parts := binary_operator(child)):
            if parts[1].spelling != "=":
                continue
        m.add(child, "stmt", ctx, "statement-deleted", "statement -> nothing", "",
              end=m.statement_end(child))


def return_default(m, node, ctx):
    if node.c.kind != K.RETURN_STMT or ctx.function_cursor is None or not node.children():
        return
    result = ctx.function_cursor.result_type
    if result.kind in (T.VOID, T.LVALUEREFERENCE, T.RVALUEREFERENCE, T.INVALID):
        return
    expression = node.text[len("return"):].strip()
    if expression in ("{}", "std::nullopt", "0", "0.0", "false", "nullptr"):
        return  # already the default: the same program
    m.add(node, "stmt", ctx, "return-default", "return x -> return {}", "return {};",
          end=m.statement_end(node))


def condition_of(node):
    """The condition of an if, while, for or ?: (not a declaration)."""
    kind = node.c.kind
    children = node.children()
    if kind in (K.IF_STMT, K.WHILE_STMT) and children:
        first = children[0]
        return None if first.c.kind in (K.VAR_DECL, K.DECL_STMT) else first
    if kind == K.CONDITIONAL_OPERATOR and len(children) == 3:
        return children[0]
    if kind == K.FOR_STMT:
        tokens = node.tokens()
        semis, depth = [], 0
        for t in tokens:
            if t.spelling == "(":
                depth += 1
            elif t.spelling == ")":
                depth -= 1
                if depth == 0:
                    break
            elif t.spelling == ";" and depth == 1:
                semis.append(t.extent.start.offset)
        if len(semis) == 2:
            for c in children:
                if semis[0] < c.start and c.end <= semis[1]:
                    return c
    return None


def condition_negated(m, node, ctx):
    cond = condition_of(node)
    if cond is not None:
        m.add(cond, "cond", ctx, "condition-negated", "c -> !c", f"!({cond.text})")


# ---- the refactor slips -----------------------------------------------------------------


def jitter_parts(m, node):
    """delay * (1 + t) as (delay, t, r, f) where t is ((r * 2) - 1) * f, else None."""
    if node.c.kind != K.BINARY_OPERATOR or not (parts := binary_operator(node)):
        return None
    delay, op, scale = parts
    if op.spelling != "*":
        return None
    plus = strip(scale)
    if plus.c.kind != K.BINARY_OPERATOR or not (inner := binary_operator(plus)):
        return None
    one, plus_op, t = inner
    if plus_op.spelling != "+" or strip(one).text.strip() != "1":
        return None
    spread = strip(t)
    r = f = None
    if spread.c.kind == K.BINARY_OPERATOR and (times := binary_operator(spread)):
        centred, times_op, f = times
        if times_op.spelling == "*" and (minus := binary_operator(strip(centred))):
            doubled, minus_op, _ = minus
            if minus_op.spelling == "-" and (twice := binary_operator(strip(doubled))):
                r = twice[0]
    return delay, t, r, f


def jitter_regrouped(m, node, ctx):
    parts = jitter_parts(m, node)
    if parts is None:
        return
    delay, t, r, f = parts
    d, t_text = delay.text, t.text
    m.add(node, "expr", ctx, "jitter-regrouped", "d * (1 + t) -> d + d * t",
          f"({d}) + ({d}) * ({t_text})")
    m.add(node, "expr", ctx, "jitter-fused", "d * (1 + t) -> fma(d, t, d)",
          f"std::fma(({d}), ({t_text}), ({d}))")
    if r is not None and f is not None:
        m.add(node, "expr", ctx, "jitter-regrouped", "d * (1 + (2r - 1) f) -> d (1 - f) + d 2f r",
              f"({d}) * (1 - ({f.text})) + ({d}) * (2 * ({f.text}) * ({r.text}))")


def closed_form_pow(m, node, ctx):
    if node.c.kind != K.CALL_EXPR or node.c.spelling != "walk":
        return
    args = list(node.c.get_arguments())
    if len(args) != 5:
        return
    text = [m.source[a.extent.start.offset:a.extent.end.offset] for a in args]
    running, entry, attempt, multiplier, _ = text
    m.add(node, "expr", ctx, "closed-form-pow", "walk(...) -> running * pow(m, attempt - entry)",
          f"WalkEnd{{({running}) * std::pow(({multiplier}), static_cast<double>(({attempt}) - "
          f"({entry}))), ({attempt}) - 1}}")


def cap_in_scope(ctx):
    """The expression that is the cap where a running value is multiplied."""
    if ctx.function_cursor is not None:
        for c in ctx.function_cursor.walk_preorder():
            if c.kind in (K.PARM_DECL, K.VAR_DECL) and c.spelling == "cap":
                return "cap"
    if ctx.class_cursor is not None:
        fields = {c.spelling for c in ctx.class_cursor.get_children() if c.kind == K.FIELD_DECL}
        if "max_delay_" in fields:
            return "max_delay_"
        if "options_" in fields:
            return "options_.max_delay.count()"
    return None


def cap_on_running_value(m, node, ctx):
    if node.c.kind != K.BINARY_OPERATOR or not (parts := binary_operator(node)):
        return
    lhs, op, rhs = parts
    if op.spelling != "*" or strip(lhs).text not in ("running", "running_"):
        return
    cap = cap_in_scope(ctx)
    if cap is None:
        return
    run = strip(lhs).text
    m.add(node, "expr", ctx, "cap-on-running-value", "running * m -> capped(running) * m",
          f"(({cap}) > 0.0 && ({run}) > ({cap}) ? ({cap}) : ({run})) * ({rhs.text})")


def index_off_by_one(m, node, ctx):
    if node.c.kind == K.ARRAY_SUBSCRIPT_EXPR and len(node.children()) == 2:
        index = node.children()[1]
    elif node.c.kind == K.CALL_EXPR and node.c.spelling == "operator[]":
        index = node.children()[-1]
    else:
        return
    for sign in ("+", "-"):
        m.add(index, "expr", ctx, "index-off-by-one", f"[i] -> [i {sign} 1]",
              f"({index.text}) {sign} 1")


def loop_bound_off_by_one(m, node, ctx):
    if node.c.kind not in (K.FOR_STMT, K.WHILE_STMT):
        return
    cond = condition_of(node)
    if cond is None or cond.c.kind != K.BINARY_OPERATOR or not (parts := binary_operator(cond)):
        return
    if parts[1].spelling not in RELATIONAL:
        return
    bound = parts[2]
    for sign in ("+", "-"):
        m.add(bound, "expr", ctx, "loop-bound-off-by-one", f"i < n -> i < n {sign} 1",
              f"({bound.text}) {sign} 1")


def draws_in(function_cursor, source):
    """The draw calls in a function: source() or draw_from_thread_engine()."""
    draws = []
    for c in function_cursor.walk_preorder():
        if c.kind != K.CALL_EXPR:
            continue
        text = source[c.extent.start.offset:c.extent.end.offset]
        if re.fullmatch(r"source\(\)|(internal::)?draw_from_thread_engine\(\)", text):
            draws.append(text)
    return draws


def extra_draw(m, node, ctx):
    if node.c.kind != K.RETURN_STMT or ctx.function_cursor is None:
        return
    draws = draws_in(ctx.function_cursor, m.source)
    if not draws:
        return
    end = m.statement_end(node)
    m.add(node, "stmt", ctx, "extra-draw", "return x -> draw; return x",
          f"(void){draws[0]}; {m.source[node.start:end]}", end=end)


TABLE = [
    Operator("relational", "a boundary moved: the inclusive age limit, the last attempt, the "
             "cap's strict >, the range of r", relational),
    Operator("equality", "== and != swapped: a zero test, a fixed point, an end of range",
             equality),
    Operator("arithmetic", "+ - * / swapped: the jitter's arithmetic, the parity, the draw's "
             "scaling", arithmetic_operator),
    Operator("logical", "&& and || swapped: a validation rule or a guard weakened or "
             "strengthened", logical),
    Operator("constant", "a constant moved by one (n +- 1, x +- 1, 2^(e +- 1)), true and false "
             "swapped: a default, a factory's value, the draw's bits", constant),
    Operator("negation-removed", "a ! or a unary - dropped: a NaN guard, the sign of zero",
             negation_removed),
    Operator("increment", "++ and -- swapped: a loop that never ends or a range that runs "
             "backwards", increment),
    Operator("ternary-arms", "the arms of ?: swapped: the cap taken where it should not be",
             ternary_arms),
    Operator("min-max", "std::min and std::max swapped", min_max),
    Operator("bits-to-values", "bit_cast(a) == bit_cast(b) tidied into a == b, which loses -0.0 "
             "against 0.0", bits_to_values),
    Operator("statement-deleted", "a statement dropped: an assignment, a call, a break, a check",
             statement_deleted),
    Operator("return-default", "a function returns {}: 0, false, nullopt, an empty string",
             return_default),
    Operator("condition-negated", "the condition of an if, a loop or ?: negated",
             condition_negated),
    Operator("jitter-regrouped", "the jitter expression rewritten as the same real number, "
             "rounded differently: d + d*t, d(1 - f) + d*2fr", jitter_regrouped),
    Operator("jitter-fused", "the jitter contracted into std::fma, as -ffp-contract=fast does "
             "(registered by jitter-regrouped's matcher)", None),
    Operator("closed-form-pow", "the walk replaced by initial * pow(m, k): one rounding instead "
             "of k", closed_form_pow),
    Operator("cap-on-running-value", "the cap folded into the running value, not applied to each "
             "entry", cap_on_running_value),
    Operator("index-off-by-one", "an index one too far or one short: the remembered prefix",
             index_off_by_one),
    Operator("loop-bound-off-by-one", "a loop's bound one too far or one short: one "
             "multiplication too many or too few", loop_bound_off_by_one),
    Operator("extra-draw", "a draw taken where none is due (before giving up, for a zero delay "
             "or factor) or twice", extra_draw),
]


def apply_all(m, node, ctx):
    for operator in TABLE:
        if operator.apply is not None:
            operator.apply(m, node, ctx)
