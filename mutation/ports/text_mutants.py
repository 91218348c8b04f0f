#!/usr/bin/env python3
"""text_mutants: single-point mutants of the Java and .NET ports, made on their text.

The Python and Go ports get mutant schemata (python_schemata.py, go/): one
copy of the port with every mutant behind a switch. For Java and C# that
needs the compiler's own tree (javac's API; Roslyn is not in Mono), so
these two ports are mutated on their text instead: each mutant is a copy of
one source file with one site changed, which the analysis compiles alone
(mutate_ports.py drops and counts the mutants the compiler refuses).

The text is read with a tokenizer that knows comments, string and char
literals (C#'s verbatim and interpolated strings, Java's text blocks), and
a light parser of what a mutant needs: types and their members, so that
each site has its enclosing `Class.method`; statements inside the bodies;
which `<` opens a generic argument list; which `?` is a conditional. The
operators are one table, TABLE, with the names the Python and Go analyses
use where the slip is the same.

A mutant's key is `file | Class.method | operator change | occurrence`,
and its fingerprint is the sha256 of its member's tokens (comments and
layout left out), so keys and equivalents survive edits to other members,
as the schemata's do. An overloaded method's name carries its parameter
types: `RetryPolicy.nextDelay(long, double, boolean, DoubleSupplier)`.

  text_mutants.py --port java --list       # every mutant of the Java port
  text_mutants.py --port dotnet --counts    # how many each operator makes
"""
import argparse
import dataclasses
import hashlib
import math
import pathlib
import re
import sys

# The parts every mutation analysis here shares (mutation/framework.py).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from framework import Keys, Operator  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


# ---- the languages ------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Language:
    name: str
    operators: tuple         # every operator token, longest first
    keywords: frozenset      # words that are never a value or a type name
    primitives: frozenset    # the types a nullable `?` or a cast may follow
    modifiers: frozenset     # words before a member's type
    min_max: dict            # (receiver, name) -> the other one
    bits_calls: frozenset    # receiver.name of a call that reads a double's bits
    sign_helpers: frozenset  # the port's own sign-bit tests, f(x) meaning x's sign bit is set


COMMON_OPERATORS = ("<<=", ">>=", "...", "::", "++", "--", "&&", "||", "==", "!=", "<=",
                    ">=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>")

JAVA = Language(
    "java",
    operators=(">>>=", ">>>", "->") + COMMON_OPERATORS,
    keywords=frozenset("""abstract assert boolean break byte case catch char class const continue
        default do double else enum extends final finally float for goto if implements import
        instanceof int interface long native new package private protected public return short
        static strictfp super switch synchronized this throw throws transient try void volatile
        while true false null var yield record""".split()),
    primitives=frozenset("boolean byte char short int long float double".split()),
    modifiers=frozenset("""public private protected static final abstract synchronized native
        strictfp transient volatile default sealed non-sealed""".split()),
    min_max={("Math", "min"): "max", ("Math", "max"): "min",
             ("StrictMath", "min"): "max", ("StrictMath", "max"): "min"},
    bits_calls=frozenset({"Double.doubleToRawLongBits", "Double.doubleToLongBits"}),
    sign_helpers=frozenset(),
)

CSHARP = Language(
    "csharp",
    operators=("??=", "??", "?.", "=>") + COMMON_OPERATORS,
    keywords=frozenset("""abstract as base bool break byte case catch char checked class const
        continue decimal default delegate do double else enum event explicit extern false finally
        fixed float for foreach goto if implicit in int interface internal is lock long namespace
        new null object operator out override params private protected public readonly ref return
        sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof
        uint ulong unchecked unsafe ushort using virtual void volatile while""".split()),
    primitives=frozenset("""bool byte sbyte char short ushort int uint long ulong float double
        decimal object string""".split()),
    modifiers=frozenset("""public private protected internal static readonly const sealed
        abstract virtual override extern unsafe volatile new async partial""".split()),
    min_max={("Math", "Min"): "Max", ("Math", "Max"): "Min"},
    bits_calls=frozenset({"BitConverter.DoubleToInt64Bits"}),
    sign_helpers=frozenset({"IsNegative"}),
)

LANGUAGES = {"java": JAVA, "csharp": CSHARP}

# The ports, as mutate_ports.py runs them: where each is, its files (from the
# port's folder), and the folder keys name files from.
PORTS = {
    "java": {"language": "java", "folder": "conformance/adapters/java",
             "globs": ("src/**/*.java",), "key_root": "src/com/acemq/amqp"},
    "dotnet": {"language": "csharp", "folder": "conformance/adapters/dotnet",
               "globs": ("src/*.cs", "adapter/*.cs"), "key_root": ""},
}


# ---- tokens -------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Token:
    kind: str    # "id", "num", "str", "chr", "op"
    text: str
    start: int
    end: int
    line: int


class SourceError(Exception):
    pass


NUMBER = re.compile(r"""
    0[xX][0-9a-fA-F_]+[lLuU]*
  | 0[bB][01_]+[lLuU]*
  | (?:[0-9][0-9_]*(?:\.[0-9][0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9_]+)?[fFdDmMlLuU]*
""", re.VERBOSE)
IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _quoted(source, i, quote, escapes=True):
    """The index after a literal that opens at source[i] == quote."""
    j = i + 1
    while j < len(source):
        c = source[j]
        if escapes and c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n" and quote in "\"'":
            break
        j += 1
    raise SourceError(f"an unterminated literal at offset {i}")


def _verbatim(source, i):
    """C#'s @"...": no escapes, "" is a quote. i is at the opening quote."""
    j = i + 1
    while j < len(source):
        if source[j] == '"':
            if source.startswith('""', j):
                j += 2
                continue
            return j + 1
        j += 1
    raise SourceError(f"an unterminated verbatim string at offset {i}")


def _interpolated(source, i, verbatim):
    """C#'s $"...{expr}...": its holes may hold strings of their own."""
    j = i + 1
    while j < len(source):
        c = source[j]
        if c == "\\" and not verbatim:
            j += 2
        elif c == '"':
            if verbatim and source.startswith('""', j):
                j += 2
                continue
            return j + 1
        elif c == "{" and source.startswith("{{", j):
            j += 2
        elif c == "{":
            depth, j = 1, j + 1
            while depth and j < len(source):
                if source[j] in "\"'":
                    j = _string_at(source, j)
                    continue
                depth += {"{": 1, "}": -1}.get(source[j], 0)
                j += 1
        else:
            j += 1
    raise SourceError(f"an unterminated interpolated string at offset {i}")


def _string_at(source, j):
    if source[j] == "'":
        return _quoted(source, j, "'")
    for prefix, end in (('$@"', lambda k: _interpolated(source, k + 2, True)),
                        ('@$"', lambda k: _interpolated(source, k + 2, True)),
                        ('$"', lambda k: _interpolated(source, k + 1, False)),
                        ('@"', lambda k: _verbatim(source, k + 1))):
        if source.startswith(prefix, j):
            return end(j)
    return _quoted(source, j, '"')


def tokenize(source, language):
    tokens = []
    i, line, n = 0, 1, len(source)
    at_line_start = True
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v\ufeff":
            i += 1
            continue
        start = i
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            if end < 0:
                raise SourceError(f"an unterminated comment at line {line}")
            line += source.count("\n", i, end + 2)
            i = end + 2
            continue
        if c == "#" and at_line_start and language is CSHARP:
            end = source.find("\n", i)  # a preprocessor line
            i = n if end < 0 else end
            continue
        at_line_start = False
        if language is JAVA and source.startswith('"""', i):
            end = source.find('"""', i + 3)
            while end > 0 and source[end - 1] == "\\":
                end = source.find('"""', end + 1)
            if end < 0:
                raise SourceError(f"an unterminated text block at line {line}")
            i, kind = end + 3, "str"
        elif c == '"' or (language is CSHARP and c in "@$" and re.match(r'[@$]{1,2}"', source[i:i + 3])):
            i, kind = _string_at(source, i), "str"
        elif c == "'":
            i, kind = _quoted(source, i, "'"), "chr"
        elif c.isdigit() or (c == "." and i + 1 < n and source[i + 1].isdigit()):
            i, kind = NUMBER.match(source, i).end(), "num"
        elif IDENT.match(source, i) or (language is CSHARP and c == "@" and IDENT.match(source, i + 1)):
            i, kind = IDENT.match(source, i + (c == "@")).end(), "id"
        else:
            op = next((o for o in language.operators if source.startswith(o, i)), c)
            i, kind = i + len(op), "op"
        text = source[start:i]
        tokens.append(Token(kind, text, start, i, line))
        line += text.count("\n")
    return tokens


# ---- the parse: types, members, statements ----------------------------------------------

TYPE_WORDS = {"class", "interface", "enum", "struct"}
CONTROL = {"if", "while", "for", "foreach", "switch", "do", "try", "using", "lock", "fixed",
           "synchronized", "checked", "unchecked", "return", "throw", "break", "continue",
           "yield", "else", "catch", "finally", "goto"}
ASSIGNMENTS = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>=", "??="}
# Words an expression may start after: a conditional's condition, or an
# additive chain, reaches back no further.
LOW_PRECEDENCE_WORDS = {"return", "throw", "case", "yield", "in", "else", "do", "await"}


@dataclasses.dataclass
class Member:
    name: str            # Outer.Inner.member, before overloads are told apart
    kind: str            # method, constructor, initializer, property, field
    first: int           # its tokens, first to last
    last: int
    returns: str = ""    # the declared type (a method's return type, a property's type)
    params: tuple = ()   # parameter types, to name an overload
    excluded: tuple = ()  # token ranges no site may touch (annotations, attributes)
    fingerprint: str = ""


@dataclasses.dataclass
class Statement:
    kind: str            # assignment, call, declaration, return, throw, break, continue, other
    first: int
    last: int            # the token before its ; (or its last token)
    semicolon: int       # its ; token, or -1
    parent: str          # the construct it sits in: top, if, loop, case, try, block
    member: Member
    in_lambda: bool
    returns: str = ""    # a return's method's type ("" in a lambda: unknown)


class SourceFile:
    """One file's tokens, parsed enough for the operators."""

    def __init__(self, relpath, source, language):
        self.relpath = relpath
        self.source = source
        self.language = language
        self.tokens = tokenize(source, language)
        self.match = self._match_brackets()
        self.members = []
        self.statements = []
        self.conditions = []     # (first, last, what): an if's, a loop's
        self.loop_bounds = []    # (first, last): the bound of a C-style for
        self.generic = self._generic_marks()
        self._types(-1, len(self.tokens), [], None)
        self._name_overloads()
        self.member_at = [None] * len(self.tokens)
        self.excluded = [False] * len(self.tokens)
        for m in self.members:
            for k in range(m.first, m.last + 1):
                self.member_at[k] = m
            for a, b in m.excluded:
                for k in range(a, b + 1):
                    self.excluded[k] = True
        for m in self.members:
            self._bodies(m)
        self.ternaries = [t for t in (self._ternary(k) for k in range(len(self.tokens))) if t]
        self._lines = None
        # What this file declares as a string; generate() gives the port's.
        self.strings = Strings([self])

    # ---- helpers ------------------------------------------------------------

    def line_span(self, line):
        """Where a line's first token starts and its last token ends."""
        if self._lines is None:
            self._lines = {}
            for t in self.tokens:
                start, end = self._lines.get(t.line, (t.start, t.end))
                self._lines[t.line] = (min(start, t.start), max(end, t.end))
        return self._lines[line]

    def text(self, k):
        return self.tokens[k].text if 0 <= k < len(self.tokens) else ""

    def span(self, first, last):
        return self.source[self.tokens[first].start:self.tokens[last].end]

    def _match_brackets(self):
        match, stack = {}, []
        for k, t in enumerate(self.tokens):
            if t.kind != "op":
                continue
            if t.text in "([{":
                stack.append(k)
            elif t.text in ")]}":
                if not stack:
                    raise SourceError(f"{self.relpath}:{t.line}: an unmatched {t.text}")
                opener = stack.pop()
                if "([{".index(self.tokens[opener].text) != ")]}".index(t.text):
                    raise SourceError(f"{self.relpath}:{t.line}: {t.text} closes "
                                      f"{self.tokens[opener].text}")
                match[opener], match[k] = k, opener
        if stack:
            raise SourceError(f"{self.relpath}: an unclosed {self.tokens[stack[-1]].text}")
        return match

    def skip_to(self, k, stops, limit):
        """The first token from k, before limit, whose text is in stops, outside
        brackets (a bracket's contents are jumped); limit if none."""
        while k < limit:
            t = self.tokens[k]
            if t.kind == "op" and t.text in stops:
                return k
            if t.kind == "op" and t.text in "([{":
                k = self.match[k] + 1
                continue
            k += 1
        return limit

    # ---- generics: which < and > are brackets ------------------------------------

    def _generic_marks(self):
        """Token indices of every < and > (>>, >>>) that bound a generic
        argument list, so that no relational operator is made of them. A <
        opens one when what follows, up to its >, can only be type names:
        identifiers (a type capitalised, a package lowercase before a dot),
        primitives, dots, commas, ?, [], extends and super."""
        marks = set()
        for k, t in enumerate(self.tokens):
            if t.text != "<" or k in marks:
                continue
            depth, j, inside = 1, k + 1, [k]
            while j < len(self.tokens) and depth > 0:
                u = self.tokens[j]
                if u.text == "<":
                    depth += 1
                elif u.text in (">", ">>", ">>>"):
                    depth -= len(u.text)
                    if depth < 0:
                        break
                elif u.kind == "id":
                    nxt = self.text(j + 1)
                    if not (u.text[0].isupper() or u.text in self.language.primitives
                            or u.text in ("extends", "super", "var") or nxt == "."):
                        break
                elif u.text not in (".", ",", "?", "[", "]", "&"):
                    break
                inside.append(j)
                j += 1
            if depth == 0:
                marks.update(x for x in inside if self.tokens[x].text in ("<", ">", ">>", ">>>"))
        return marks

    # ---- types and members ------------------------------------------------------------

    def _type_word(self, first, last):
        """(keyword, name) if tokens first..last declare a type or a namespace."""
        k = first
        while k <= last:
            t = self.tokens[k]
            if t.text in "([" and t.kind == "op":
                k = self.match[k] + 1
                continue
            if t.kind == "id" and t.text in TYPE_WORDS and self.text(k - 1) != "@":
                return t.text, self.text(k + 1)
            if t.kind == "id" and t.text == "namespace":
                return "namespace", ""
            if (self.language is JAVA and t.text == "record" and self.tokens[k + 1].kind == "id"
                    and self.text(k + 2) in ("(", "<")):
                return "record", self.text(k + 1)
            k += 1
        return None

    def _decorations(self, first, last):
        """The annotations (@Name, @Name(...)) and leading attributes ([...])
        among tokens first..last, as token ranges."""
        ranges, k, leading = [], first, True
        while k <= last:
            t = self.tokens[k]
            if t.text == "@" and t.kind == "op" and k + 1 <= last:
                end = k + 1
                while self.text(end + 1) == "." and end + 2 <= last:
                    end += 2
                if self.text(end + 1) == "(":
                    end = self.match[end + 1]
                ranges.append((k, end))
                k = end + 1
                continue
            if t.text == "[" and leading:
                ranges.append((k, self.match[k]))
                k = self.match[k] + 1
                continue
            leading = False
            k += 1
        return ranges

    def _types(self, opener, closer, scope, type_name, record=False):
        """Reads the members between a type's braces (or a whole file, opener -1)."""
        k = opener + 1
        file_level = opener < 0
        while k < closer:
            if self.text(k) == ";":
                k += 1
                continue
            first = k
            stop = self.skip_to(k, {";", "{", "=", "=>"}, closer)
            if stop >= closer:
                # An enum's constants without a closing ; (C#).
                if not file_level and stop > first:
                    self._member(scope, "field", self._field_name(first, stop), first,
                                 stop - 1, first, stop - 1)
                break
            word = self.text(stop)
            if word == "{":
                declared = self._type_word(first, stop - 1)
                if declared:
                    kw, name = declared
                    inner = scope if kw == "namespace" else scope + [name]
                    self._types(stop, self.match[stop], inner, name if kw != "namespace" else None,
                                record=kw == "record")
                    k = self.match[stop] + 1
                    continue
                end = self.match[stop]
                if self.language is CSHARP and self.text(end + 1) == "=":
                    end = self.skip_to(end + 1, {";"}, closer)  # a property's initializer
                if not file_level:
                    self._method_like(scope, type_name, record, first, stop, end)
                k = end + 1
                continue
            end = stop if word == ";" else self.skip_to(stop, {";"}, closer)
            if not file_level:
                header_end = stop - 1
                if word == "=>" or (word == ";" and self._paren_in(first, header_end)):
                    self._method_like(scope, type_name, record, first, None, end, header_end)
                else:
                    self._member(scope, "field", self._field_name(first, end), first, end, first,
                                 header_end)
            k = end + 1

    def _paren_in(self, first, last):
        return any(self.text(k) == "(" for k in range(first, last + 1))

    def _field_name(self, first, end):
        """A field's name: the first declarator's, the name before the first
        =, , or ; (an enum's first constant, for a list of them)."""
        stop = first
        while stop < end and self.text(stop) not in ("=", ",", ";"):
            if self.text(stop) == "<" and stop in self.generic:
                stop = self.match_angle(stop)
            elif self.text(stop) in "([{" and self.tokens[stop].kind == "op":
                stop = self.match[stop]
            stop += 1
        k = stop - 1
        while k >= first and self.tokens[k].kind != "id":
            k -= 1
        return self.text(k) if k >= first else "<field>"

    def _core(self, first, last):
        """A header's tokens without its annotations and attributes."""
        skipped = set()
        for a, b in self._decorations(first, last):
            skipped.update(range(a, b + 1))
        return [k for k in range(first, last + 1) if k not in skipped]

    def _method_like(self, scope, type_name, record, first, body, end, header_end=None):
        header_end = body - 1 if body is not None else header_end
        core = self._core(first, header_end)
        words = [self.text(k) for k in core]
        paren = next((k for k in core if self.text(k) == "(" and self.tokens[k - 1].kind == "id"
                      and not (self.text(k - 2) == ":" and self.text(k - 1) in ("base", "this"))),
                     None)  # not a C# constructor's call of base(...) or this(...)
        if paren is not None:
            name = self.text(paren - 1)
            kind = "constructor" if name == type_name else "method"
            if kind == "constructor" and "static" in words:
                name, kind = "<static>", "initializer"
            type_tokens = [k for k in core if k < paren - 1
                           and self.text(k) not in self.language.modifiers]
            if type_tokens and self.text(type_tokens[0]) == "<":  # <T> before the type
                type_tokens = type_tokens[type_tokens.index(self.match_angle(type_tokens[0])) + 1:]
            returns = "" if kind != "method" else self.joined(type_tokens)
            params = self._params(paren, self.match[paren])
            self._member(scope, kind, name, first, end, first, header_end, returns, params)
            return
        if not core or words == ["static"]:
            name = "<static>" if words == ["static"] else "<init>"
            self._member(scope, "initializer", name, first, end, first, header_end)
            return
        name = words[-1]
        if words[-1] == "]" and "this" in words:
            name = "this[]"
        if record and name == type_name:
            self._member(scope, "constructor", name, first, end, first, header_end)
            return
        type_tokens = [k for k in core[:-1] if self.text(k) not in self.language.modifiers]
        self._member(scope, "property", name, first, end, first, header_end,
                     self.joined(type_tokens))

    def match_angle(self, k):
        depth = 0
        for j in range(k, len(self.tokens)):
            t = self.text(j)
            if t == "<":
                depth += 1
            elif t in (">", ">>", ">>>"):
                depth -= len(t)
                if depth <= 0:
                    return j
        return k

    def joined(self, ks):
        out = ""
        for k in ks:
            t = self.tokens[k]
            if out and t.kind in ("id", "num") and (out[-1].isalnum() or out[-1] in "_$"):
                out += " "
            elif out and out[-1] == ",":
                out += " "
            out += t.text
        return out

    def _params(self, opener, closer):
        """The parameter types between a method's parentheses."""
        out, current, angle, k = [], [], 0, opener + 1
        while k < closer:
            t = self.text(k)
            if t in "([{" and self.tokens[k].kind == "op":
                current.extend(range(k, self.match[k] + 1))
                k = self.match[k] + 1
                continue
            if t == "<":
                angle += 1
            elif t in (">", ">>", ">>>"):
                angle -= len(t)
            if t == "," and angle <= 0:
                out.append(current)
                current = []
            else:
                current.append(k)
            k += 1
        if current:
            out.append(current)
        types = []
        for ks in out:
            skipped = set()
            for a, b in self._decorations(ks[0], ks[-1]):
                skipped.update(range(a, b + 1))
            ks = [k for k in ks if k not in skipped]
            if "=" in [self.text(k) for k in ks]:
                ks = ks[:[self.text(k) for k in ks].index("=")]
            ks = [k for k in ks if self.text(k) not in ("final", "this", "params")]
            types.append(self.joined(ks[:-1]))
        return tuple(types)

    def _member(self, scope, kind, name, first, last, header_first, header_last, returns="",
                params=()):
        qualified = ".".join(scope + [name])
        excluded = tuple(self._decorations(header_first, header_last))
        dump = " ".join(self.text(k) for k in range(first, last + 1))
        self.members.append(Member(qualified, kind, first, last, returns, params, excluded,
                                   hashlib.sha256(dump.encode()).hexdigest()))

    def _name_overloads(self):
        """Methods that share a name get their parameter types in it, so that
        each has keys and a fingerprint of its own."""
        count = {}
        for m in self.members:
            count[m.name] = count.get(m.name, 0) + 1
        for m in self.members:
            if count[m.name] > 1 and m.kind in ("method", "constructor"):
                m.name = f"{m.name}({', '.join(m.params)})"

    # ---- statements ---------------------------------------------------------------------

    def _bodies(self, m):
        if m.kind in ("method", "constructor", "initializer"):
            body = self.skip_to(m.first, {"{", "=>", ";"}, m.last + 1)
            if self.text(body) == "{" and self.match[body] <= m.last:
                self._block(body, m, "top", False, m.returns if m.kind == "method" else "void")
            else:
                self._lambdas(m.first, m.last, m)
        elif m.kind == "property":
            body = self.skip_to(m.first, {"{", "=>"}, m.last + 1)
            if self.text(body) == "{":
                k = body + 1
                while k < self.match[body]:
                    if self.text(k) == "{":
                        accessor = self.text(k - 1)
                        self._block(k, m, "top", False, m.returns if accessor == "get" else "void")
                        k = self.match[k] + 1
                    else:
                        k += 1
            else:
                self._lambdas(m.first, m.last, m)
        else:
            self._lambdas(m.first, m.last, m)

    def _block(self, opener, member, parent, in_lambda, returns):
        k = opener + 1
        closer = self.match[opener]
        while k < closer:
            k = self._statement(k, closer, member, parent, in_lambda, returns)

    def _lambdas(self, first, last, member):
        """The block bodies of lambdas among tokens first..last, read as statements."""
        k = first
        while k <= last:
            t = self.text(k)
            if t in ("->", "=>") and self.text(k + 1) == "{":
                self._block(k + 1, member, "top", True, "")
                k = self.match[k + 1] + 1
                continue
            k += 1

    def _condition(self, opener, what, member):
        closer = self.match[opener]
        if closer > opener + 1:
            self.conditions.append((opener + 1, closer - 1, what))
        self._lambdas(opener + 1, closer - 1, member)
        return closer + 1

    def _statement(self, k, closer, member, parent, in_lambda, returns):
        """Reads the statement at k; returns the index after it."""
        word = self.text(k)
        kind = self.tokens[k].kind
        step = (member, in_lambda, returns)
        if word == "{" and kind == "op":
            self._block(k, member, parent, in_lambda, returns)
            return self.match[k] + 1
        if word == ";":
            return k + 1
        if kind == "id" and word == "if" and self.text(k + 1) == "(":
            after = self._condition(k + 1, "if", member)
            after = self._statement(after, closer, member, "if", in_lambda, returns)
            if self.text(after) == "else":
                after = self._statement(after + 1, closer, member, "if", in_lambda, returns)
            return after
        if kind == "id" and word == "while" and self.text(k + 1) == "(":
            after = self._condition(k + 1, "while", member)
            return self._statement(after, closer, member, "loop", in_lambda, returns)
        if kind == "id" and word == "do":
            after = self._statement(k + 1, closer, member, "loop", in_lambda, returns)
            if self.text(after) == "while" and self.text(after + 1) == "(":
                after = self._condition(after + 1, "do-while", member)
            return after + 1 if self.text(after) == ";" else after
        if kind == "id" and word in ("for", "foreach") and self.text(k + 1) == "(":
            opener = k + 1
            head_end = self.match[opener]
            first_semi = self.skip_to(opener + 1, {";"}, head_end)
            if first_semi < head_end:
                second = self.skip_to(first_semi + 1, {";"}, head_end)
                if second > first_semi + 1:
                    self.conditions.append((first_semi + 1, second - 1, "for"))
                    self.loop_bounds.append((first_semi + 1, second - 1))
            self._lambdas(opener + 1, head_end - 1, member)
            return self._statement(head_end + 1, closer, member, "loop", in_lambda, returns)
        if kind == "id" and word == "switch" and self.text(k + 1) == "(":
            body = self.match[k + 1] + 1
            self._lambdas(k + 2, body - 2, member)
            if self.text(body) == "{":
                self._switch_body(body, *step)
                return self.match[body] + 1
            return body
        if kind == "id" and word == "try":
            after = k + 1
            if self.text(after) == "(":
                self._lambdas(after + 1, self.match[after] - 1, member)
                after = self.match[after] + 1
            after = self._statement(after, closer, member, "try", in_lambda, returns)
            while self.text(after) in ("catch", "finally"):
                after += 1
                if self.text(after) == "(":
                    after = self.match[after] + 1
                if self.text(after) == "when" and self.text(after + 1) == "(":
                    after = self.match[after + 1] + 1
                after = self._statement(after, closer, member, "try", in_lambda, returns)
            return after
        if kind == "id" and word in ("using", "lock", "fixed", "synchronized") and \
                self.text(k + 1) == "(":
            self._lambdas(k + 2, self.match[k + 1] - 1, member)
            return self._statement(self.match[k + 1] + 1, closer, member, parent, in_lambda,
                                   returns)
        if kind == "id" and word in ("checked", "unchecked") and self.text(k + 1) == "{":
            return self._statement(k + 1, closer, member, parent, in_lambda, returns)
        end = self.skip_to(k, {";"}, closer)
        semicolon = end if end < closer else -1
        last = end - 1
        if word in ("return", "throw", "break", "continue") and kind == "id":
            what = word
        elif (word == "yield" and self.text(k + 1) in ("return", "break")) or (
                kind == "id" and word in CONTROL) or (
                word in ("super", "this") and self.text(k + 1) == "("):
            what = "other"  # a yield, a goto; a constructor's call of another
        else:
            what = self._expression_kind(k, last)
        self.statements.append(Statement(what, k, last, semicolon, parent, member, in_lambda,
                                         returns))
        self._lambdas(k, last, member)
        return end + 1

    def _switch_body(self, opener, member, in_lambda, returns):
        k, closer = opener + 1, self.match[opener]
        while k < closer:
            word = self.text(k)
            if word in ("case", "default") and self.tokens[k].kind == "id":
                label_end = self.skip_to(k, {":", "->"}, closer)
                k = label_end + 1  # an arrow's statement, or the label's first
                continue
            k = self._statement(k, closer, member, "case", in_lambda, returns)

    def _expression_kind(self, first, last):
        """declaration, assignment or call, for an expression statement."""
        words = [self.text(k) for k in range(first, last + 1)]
        if self._is_declaration(first, last):
            return "declaration"
        top = []
        k = first
        while k <= last:
            t = self.text(k)
            if t in "([{" and self.tokens[k].kind == "op":
                k = self.match[k] + 1
                continue
            top.append(t)
            k += 1
        if any(t in ASSIGNMENTS for t in top) or words[0] in ("++", "--") or \
                words[-1] in ("++", "--"):
            return "assignment"
        return "call"

    def _is_declaration(self, first, last):
        """TYPE NAME followed by =, ; or , : a local variable's declaration."""
        k = first
        while k <= last:
            if self.text(k) == "@":  # an annotation: @Name, @a.b.Name(...)
                k += 2
                while self.text(k) == ".":
                    k += 2
                if self.text(k) == "(":
                    k = self.match[k] + 1
            elif self.text(k) in ("final", "const", "readonly", "ref", "scoped"):
                k += 1
            else:
                break
        if k > last or self.tokens[k].kind != "id" or self.text(k) in self.language.keywords - \
                self.language.primitives - {"var"}:
            return False
        k += 1
        while k <= last:
            t = self.text(k)
            if t == "." and self.tokens[k + 1].kind == "id":
                k += 2
            elif t == "<" and k in self.generic:
                k = self.match_angle(k) + 1
            elif t == "[" and self.text(k + 1) == "]":
                k += 2
            elif t == "?" and self.language is CSHARP:
                k += 1
            else:
                break
        return k <= last and self.tokens[k].kind == "id" and (k == last or
                                                              self.text(k + 1) in ("=", ","))

    # ---- conditionals -----------------------------------------------------------------------

    def conditional(self, k):
        """Whether the ? at k is the conditional operator's."""
        t = self.tokens[k]
        return (t.text == "?" and t.kind == "op" and not self._nullable(k)
                and self.text(k + 1) not in ("extends", "super", ">", ">>", ",", ")"))

    def _nullable(self, k):
        """Whether the ? at k marks a C# nullable type (double?, Func<double?>)."""
        if self.language is not CSHARP:
            return False
        before, after = self.tokens[k - 1], self.text(k + 1)
        if before.text in self.language.primitives or after in ("[", ">", ")", ",", ">>"):
            return True
        return (before.kind == "id" or before.text == ">") and self.tokens[k + 1].kind == "id" and \
            self.text(k + 2) in ("=", ";", ",", ")")

    def _ternary(self, q):
        """(condition first, last, ?, :, false arm's last) for the ? at q, if it is one."""
        if not self.conditional(q):
            return None
        colon = self._arm_end(q + 1, stop_at_colon=True)
        if colon is None or self.text(colon) != ":":
            return None
        end = self._arm_end(colon + 1, stop_at_colon=False)
        start = q - 1
        while start >= 0:
            u = self.tokens[start]
            if u.kind == "op" and u.text in ")]}":
                start = self.match[start] - 1
                continue
            if (u.kind == "op" and (u.text in ASSIGNMENTS or u.text in
                                    ("?", ":", ",", "(", "[", "{", ";", "->", "=>")) or
                    (u.kind == "id" and u.text in LOW_PRECEDENCE_WORDS)):
                break
            start -= 1
        if start + 1 >= q:
            return None
        return start + 1, q - 1, q, colon, end

    def _arm_end(self, k, stop_at_colon):
        """From k: the ':' ending a true arm (stop_at_colon), or the last token
        of a false arm."""
        nested = 0
        while k < len(self.tokens):
            u = self.tokens[k]
            if u.kind == "op" and u.text in "([{":
                k = self.match[k] + 1
                continue
            if self.conditional(k):
                nested += 1
            elif u.kind == "op" and u.text == ":":
                if nested == 0:
                    return k if stop_at_colon else k - 1
                nested -= 1
            elif u.kind == "op" and (u.text in (")", "]", "}", ",", ";") or u.text in ASSIGNMENTS):
                return None if stop_at_colon else k - 1
            k += 1
        return None


# ---- the operators -----------------------------------------------------------------------
#
# An operator is a function of a SourceFile that yields each mutant it makes
# as Edit(first token, last token, replacement text, change). The change
# names the slip the same way at every site of its kind, so that it can be
# part of a stable key.

@dataclasses.dataclass(frozen=True)
class Edit:
    first: int
    last: int
    replacement: str
    change: str


def sites(f, predicate=None):
    """Every token inside a member, not in an annotation or attribute."""
    for k, t in enumerate(f.tokens):
        if f.member_at[k] is not None and not f.excluded[k] and (predicate is None or predicate(t)):
            yield k, t


def binary(f, k):
    """Whether the operator at k is binary: it follows an operand."""
    before = f.tokens[k - 1] if k > 0 else None
    if before is None:
        return False
    if before.kind in ("num", "str", "chr"):
        return True
    if before.kind == "id":
        return before.text not in f.language.keywords or before.text in ("this", "true", "false",
                                                                        "null", "base", "super")
    if before.text == ")":
        inside = [f.text(j) for j in range(f.match[k - 1] + 1, k - 1)]
        return not (len(inside) == 1 and inside[0] in f.language.primitives)  # a cast
    return before.text in ("]", "++", "--") or (before.text == ">" and (k - 1) in f.generic)


SWAPS = {
    "relational": {"<": "<=", "<=": "<", ">": ">=", ">=": ">"},
    "relational-negated": {"<": ">=", "<=": ">", ">": "<=", ">=": "<"},
    "equality": {"==": "!=", "!=": "=="},
    "arithmetic": {"+": "-", "-": "+", "*": "/", "/": "*",
                   "+=": "-=", "-=": "+=", "*=": "/=", "/=": "*="},
    "logical": {"&&": "||", "||": "&&"},
    "increment": {"++": "--", "--": "++"},
}


def swap(name):
    table = SWAPS[name]

    def operator(f):
        for k, t in sites(f, lambda t: t.kind == "op" and t.text in table):
            if k in f.generic:
                continue
            if t.text in "+-*/" and not binary(f, k):
                continue
            if name == "arithmetic" and t.text in ("+", "+=") and concatenates(f, k):
                continue
            yield Edit(k, k, table[t.text], f"{t.text} -> {table[t.text]}")
    operator.__name__ = name.replace("-", "_")
    return operator


# The calls and members, of the JDK and the BCL, that give a string.
STRING_MEMBERS = {"toString", "ToString", "getMessage", "Message", "substring", "Substring",
                  "join", "Join", "format", "Format", "valueOf", "name", "Name", "Text",
                  "getSimpleName", "repeat", "trim", "Trim", "Replace", "replace"}
ADDITIVE_STOPS = ASSIGNMENTS | {"==", "!=", "<", ">", "<=", ">=", "&&", "||", "&", "|", "^",
                                "?", ":", ",", ";", "(", "[", "{", "<<", ">>", ">>>", "->",
                                "=>", "??"}


def concatenates(f, k):
    """Whether the + at k joins strings: an operand of its additive chain
    left of it, or the one right of it, is a string literal or a name the
    port declares (or the library has) as a string."""
    left = []
    j = k - 1
    while j >= 0:
        u = f.tokens[j]
        if u.kind == "op" and u.text in ")]}":
            left.append((f.match[j], j))
            j = f.match[j] - 1
            continue
        if (u.kind == "op" and u.text in ADDITIVE_STOPS) or (u.kind == "id" and u.text in
                                                              LOW_PRECEDENCE_WORDS):
            break
        left.append((j, j))
        j -= 1
    right = []
    j = k + 1
    while j < len(f.tokens):
        u = f.tokens[j]
        if u.kind == "op" and u.text in "([{":
            right.append((j, f.match[j]))
            j = f.match[j] + 1
            continue
        if u.kind == "op" and (u.text in ADDITIVE_STOPS or u.text in ("+", "-", ")", "]", "}")):
            break
        right.append((j, j))
        j += 1
    return any(stringy(f, a, b) for a, b in left + right)


def stringy(f, a, b):
    t = f.tokens[a]
    if a == b:
        if t.kind == "str":
            return True
        if t.kind != "id":
            return False
        if f.text(a + 1) == "(":
            return t.text in STRING_MEMBERS or t.text in f.strings.methods
        if f.text(a + 1) == ".":
            return False  # a receiver: the last name of the chain is the value
        if f.text(a - 1) == ".":
            return t.text in STRING_MEMBERS or t.text in f.strings.fields
        local = f.strings.declared(f, f.member_at[a]).get(t.text)
        if local is not None:
            return local in ("String", "string")
        return f.strings.file_fields.get(f.relpath, {}).get(t.text) in ("String", "string")
    if t.text == "(" and not (f.tokens[a - 1].kind == "id" and
                              f.text(a - 1) not in f.language.keywords):
        # A parenthesised group (not a call's arguments, whose name decides):
        # a string literal at its own level.
        k = a + 1
        while k < b:
            if f.tokens[k].kind == "str":
                return True
            k = f.match[k] + 1 if f.text(k) in "([{" and f.tokens[k].kind == "op" else k + 1
    return False


def constant(f):
    for k, t in sites(f, lambda t: t.kind == "num" or t.text in ("true", "false")):
        if t.kind == "id":
            other = "false" if t.text == "true" else "true"
            yield Edit(k, k, other, f"{t.text} -> {other}")
            continue
        for new in literal_variants(t.text):
            written = f"({new})" if new.startswith("-") else new
            yield Edit(k, k, written, f"{t.text} -> {new}")


def literal_variants(text):
    """n -> n + 1, n - 1 (0 -> 1 only), hex staying hex; x -> x + 1, x - 1
    (0.0 -> 1.0, -1.0) in binary64, dropping a change binary64 cannot hold,
    and 2^(e +- 1) for a power of two from 2^16: the Python analysis's rule."""
    body = text.replace("_", "")
    suffix_at = len(body)
    hexadecimal = body[:2].lower() == "0x"
    binary_literal = body[:2].lower() == "0b"
    letters = "lLuU" if hexadecimal or binary_literal else "fFdDmMlLuU"
    while suffix_at > 0 and body[suffix_at - 1] in letters:
        suffix_at -= 1
    digits, suffix = body[:suffix_at], body[suffix_at:]
    floating = not (hexadecimal or binary_literal) and (
        any(c in digits for c in ".eE") or suffix.lower() in ("f", "d", "m"))
    if not floating:
        value = int(digits, 0) if (hexadecimal or binary_literal) else int(digits, 10)
        out = [value + 1] + ([value - 1] if value > 0 else [])
        if hexadecimal:
            upper = any(c in "ABCDEF" for c in digits[2:])
            return [digits[:2] + format(v, "X" if upper else "x") + suffix for v in out]
        return [str(v) + suffix for v in out]
    value = float(digits)
    news = [1.0, -1.0] if value == 0.0 else [v for v in (value + 1.0, value - 1.0) if v != value]
    mantissa, _ = math.frexp(abs(value))
    if value != 0.0 and mantissa == 0.5 and abs(value) >= 2.0 ** 16:
        news += [value * 2.0, value / 2.0]
    return [repr(v) + suffix for v in dict.fromkeys(news)]


def negation_removed(f):
    for k, t in sites(f, lambda t: t.kind == "op" and t.text in ("!", "-")):
        if t.text == "-" and (binary(f, k) or f.tokens[k + 1].kind == "num"):
            continue  # a subtraction, or a negative literal (constant moves it)
        yield Edit(k, k, "", f"{t.text}x -> x")


def ternary_arms(f):
    for start, cond_last, q, colon, end in f.ternaries:
        if f.member_at[q] is None or f.excluded[q]:
            continue
        yes, no = f.span(q + 1, colon - 1), f.span(colon + 1, end)
        if " ".join(yes.split()) == " ".join(no.split()):
            continue
        yield Edit(start, end, f"({yes.strip()})", "c ? a : b -> a")
        yield Edit(start, end, f"({no.strip()})", "c ? a : b -> b")


def min_max(f):
    for k, t in sites(f, lambda t: t.kind == "id"):
        other = f.language.min_max.get((f.text(k - 2), t.text))
        if other and f.text(k - 1) == "." and f.text(k + 1) == "(":
            receiver = f.text(k - 2)
            yield Edit(k, k, other, f"{receiver}.{t.text} -> {receiver}.{other}")


def bits_call(f, k):
    """(name, argument first, last, the call's last token) for a bits call at k."""
    if f.tokens[k].kind != "id" or f.text(k + 1) != "." or f.text(k + 3) != "(":
        return None
    name = f"{f.text(k)}.{f.text(k + 2)}"
    if name not in f.language.bits_calls:
        return None
    closer = f.match[k + 3]
    return name, k + 4, closer - 1, closer


def bits_to_values(f):
    for k, t in sites(f, lambda t: t.kind == "id"):
        call = bits_call(f, k)
        if call and f.text(k - 1) != ".":
            name, a, b, closer = call
            op = f.text(closer + 1)
            other = bits_call(f, closer + 2) if op in ("==", "!=") else None
            if other and other[0] == name:
                _, c, d, end = other
                yield Edit(k, end, f"({f.span(a, b)}) {op} ({f.span(c, d)})",
                           f"{name}(a) {op} {name}(b) -> a {op} b")
            elif op in ("<", ">=") and f.text(closer + 2) == "0" and f.text(closer + 3) != ".":
                yield Edit(k, closer + 2, f"({f.span(a, b)}) {op} 0",
                           f"{name}(x) {op} 0 -> x {op} 0")
        elif t.text in f.language.sign_helpers and f.text(k + 1) == "(" and \
                (f.tokens[k - 1].kind == "op" or f.text(k - 1) == "return"):  # a call, not its declaration
            closer = f.match[k + 1]
            if closer > k + 2:
                yield Edit(k, closer, f"({f.span(k + 2, closer - 1)} < 0)",
                           f"{t.text}(x) -> x < 0")


def statement_deleted(f):
    for s in f.statements:
        if s.semicolon < 0 or f.excluded[s.first]:
            continue
        if s.kind in ("return", "throw") and s.parent not in ("if", "loop", "case"):
            continue  # only an early exit: the last return is return-default's
        if s.kind not in ("assignment", "call", "break", "continue", "return", "throw"):
            continue
        yield Edit(s.first, s.semicolon, "{}", f"{s.kind} -> nothing")


def return_default(f):
    for s in f.statements:
        returns = getattr(s, "returns", "")
        if s.kind != "return" or s.in_lambda or not returns or returns == "void" or \
                s.last <= s.first:
            continue
        expression = f.span(s.first + 1, s.last).strip()
        if f.language is JAVA:
            default = ("false" if returns == "boolean" else
                       "0" if returns in JAVA.primitives else "null")
        else:
            default = f"default({returns})"
        if expression in ("null", "false", "default") or expression.startswith("default(") or \
                re.fullmatch(r"0+(\.0*)?([eE][+-]?\d+)?[fFdDmMlLuU]*", expression):
            continue  # already the default: the same program
        change = f"return x -> return {default if f.language is JAVA else 'default'}"
        yield Edit(s.first + 1, s.last, default, change)


def condition_negated(f):
    for first, last, what in f.conditions:
        if f.member_at[first] is None or (first == last and f.text(first) in ("true", "false")):
            continue  # `while (true)`: constant swaps true for false
        yield Edit(first, last, f"!({f.span(first, last)})", "c -> !c")
    for start, cond_last, q, colon, end in f.ternaries:
        if f.member_at[q] is not None and not f.excluded[q]:
            yield Edit(start, cond_last, f"!({f.span(start, cond_last)})", "c -> !c")


def loop_bound_off_by_one(f):
    for first, last in f.loop_bounds:
        top = []
        k = first
        while k <= last:
            if f.text(k) in "([" and f.tokens[k].kind == "op":
                k = f.match[k] + 1
                continue
            top.append(k)
            k += 1
        relations = [k for k in top if f.text(k) in ("<", "<=", ">", ">=", "!=") and
                     k not in f.generic]
        if len(relations) != 1 or any(f.text(k) in ("&&", "||", "?") for k in top):
            continue
        bound = relations[0] + 1
        if bound > last or (bound == last and f.tokens[bound].kind == "num"):
            continue  # constant already moves a literal bound by one
        text = f.span(bound, last)
        simple = all(f.text(k) in (".",) or f.tokens[k].kind == "id" for k in top if k >= bound)
        shown = text if simple else f"({text})"
        for sign in ("+", "-"):
            yield Edit(bound, last, f"{shown} {sign} 1", f"n -> n {sign} 1")


TABLE = [
    Operator("relational", "a boundary moved by one: the inclusive age limit, the last attempt, "
             "the cap's strict >, the range of r (not a generic's < >)", swap("relational")),
    Operator("relational-negated", "a comparison turned round, as when a condition is rewritten "
             "from `if (bad) throw` to `if (good)`", swap("relational-negated")),
    Operator("equality", "== and != swapped: a zero test, a fixed point, a null check",
             swap("equality")),
    Operator("arithmetic", "+ - * / swapped, in an expression or a compound assignment (+= -= "
             "*= /=): the jitter's arithmetic, the parity, the draw's scaling (not a string's +)",
             swap("arithmetic")),
    Operator("logical", "&& and || swapped: a validation rule or a guard weakened or "
             "strengthened", swap("logical")),
    Operator("increment", "++ and -- swapped, the core's operator: an index that runs backwards, "
             "a count that shrinks", swap("increment")),
    Operator("constant", "a number moved by one (n +- 1, x +- 1, 2^(e +- 1) for a scale), true "
             "and false swapped: a default, a limit, a mask of the generator", constant),
    Operator("negation-removed", "a ! or a unary - dropped: a NaN guard written !(x >= 0), the "
             "sign of a zero", negation_removed),
    Operator("ternary-arms", "c ? a : b reduced to one arm: the cap taken always, or never",
             ternary_arms),
    Operator("min-max", "Math.min and Math.max swapped: a clamp turned round", min_max),
    Operator("bits-to-values", "a bit comparison (doubleToRawLongBits, DoubleToInt64Bits, a "
             "sign-bit helper) tidied into a value comparison, which loses -0.0 against 0.0",
             bits_to_values),
    Operator("statement-deleted", "a statement dropped: an assignment, a call, a break or "
             "continue, an early return or throw (not a declaration, whose name later uses need)",
             statement_deleted),
    Operator("return-default", "a method returns its type's default instead of its value: null, "
             "0, false (default(T) in C#)", return_default),
    Operator("condition-negated", "the condition of an if, a loop or a ?: negated",
             condition_negated),
    Operator("loop-bound-off-by-one", "a for loop's bound one too far or one short: one step too "
             "many or too few", loop_bound_off_by_one),
]


# ---- mutants -------------------------------------------------------------------------------

def declarations(f, first, last):
    """name -> the last token of its type, for every TYPE NAME declared in
    tokens first..last (parameters, locals, patterns, fields)."""
    out = {}
    for k in range(first, min(last, len(f.tokens) - 2)):
        t, name = f.tokens[k], f.tokens[k + 1]
        if t.kind == "id" and name.kind == "id" and f.text(k + 2) in ("=", ";", ",", ")", ":",
                                                                      "in") and \
                (t.text not in f.language.keywords or t.text in f.language.primitives):
            out.setdefault(name.text, t.text)
    return out


class Strings:
    """What a port declares as a string, for telling a + on strings apart:
    methods that return one, fields and properties of the type, and each
    member's own parameters and locals."""

    def __init__(self, files):
        self.methods, self.fields, self.file_fields, self._locals = set(), set(), {}, {}
        for f in files:
            fields = {}
            for m in f.members:
                short = m.name.split("(")[0].rsplit(".", 1)[-1]
                if m.kind == "method" and m.returns in ("String", "string"):
                    self.methods.add(short)
                elif m.kind == "property":
                    fields[short] = m.returns.rsplit(" ", 1)[-1]
                elif m.kind == "field":
                    fields.update(declarations(f, m.first, m.last))
            self.file_fields[f.relpath] = fields
            self.fields.update(n for n, t in fields.items() if t in ("String", "string"))

    def declared(self, f, member):
        if member is None:
            return {}
        key = (f.relpath, member.first)
        if key not in self._locals:
            self._locals[key] = declarations(f, member.first, member.last)
        return self._locals[key]


def collapse(text):
    return " ".join(text.split())


def shown(f, edit):
    """The mutant as people read it: the line around a one-token change, the
    site itself around a larger one."""
    first, last = f.tokens[edit.first], f.tokens[edit.last]
    if edit.first == edit.last:
        # The line's tokens, so that a comment after them is left out.
        line_start, line_end = f.line_span(first.line)
        before = f.source[line_start:line_end]
        after = f.source[line_start:first.start] + edit.replacement + f.source[last.end:line_end]
        return collapse(before), collapse(after)
    return collapse(f.source[first.start:last.end]), collapse(edit.replacement)


def port_files(port, folder=None):
    """The port's folder (the repository's, or a copy of it) and its files."""
    spec = PORTS[port]
    folder = folder or ROOT / spec["folder"]
    paths = sorted({p for g in spec["globs"] for p in folder.glob(g)})
    return folder, paths


def key_path(port, folder, path):
    root = folder / PORTS[port]["key_root"] if PORTS[port]["key_root"] else folder
    return str(path.relative_to(root))


def generate(port, folder=None):
    """Every mutant of a port (of its copy in folder): a list of dicts, in a
    fixed order, ids from 1; "path" is the file from the port's folder."""
    language = LANGUAGES[PORTS[port]["language"]]
    folder, paths = port_files(port, folder)
    files = [SourceFile(str(p.relative_to(folder)), p.read_text(), language) for p in paths]
    strings = Strings(files)
    mutants = []
    for f in files:
        f.strings = strings
        display = key_path(port, folder, folder / f.relpath)
        edits = []
        for order, operator in enumerate(TABLE):
            for edit in operator.apply(f):
                edits.append((f.tokens[edit.first].start, -f.tokens[edit.last].end, order,
                              operator.name, edit))
        edits.sort(key=lambda e: e[:3])
        keys = Keys()
        seen = set()
        for start, negative_end, _, name, edit in edits:
            end = -negative_end
            if (start, end, edit.replacement) in seen:
                continue  # two operators making the same text: one mutant
            seen.add((start, end, edit.replacement))
            member = f.member_at[edit.first]
            key, n = keys.key(display, member.name, name, edit.change)
            original, mutant = shown(f, edit)
            token = f.tokens[edit.first]
            column = token.start - f.source.rfind("\n", 0, token.start)
            mutants.append({
                "id": 0, "key": key, "file": display, "path": f.relpath,
                "line": token.line, "column": column, "function": member.name,
                "operator": name, "change": edit.change, "occurrence": n,
                "original": original, "mutant": mutant, "fingerprint": member.fingerprint,
                "start": start, "end": end, "replacement": edit.replacement})
    for i, m in enumerate(mutants, 1):
        m["id"] = i
    return mutants


def apply(text, mutant):
    """The file's text with the mutant's one change."""
    return text[:mutant["start"]] + mutant["replacement"] + text[mutant["end"]:]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", required=True, choices=sorted(PORTS))
    parser.add_argument("--list", action="store_true", help="every mutant: id, key, change")
    parser.add_argument("--counts", action="store_true", help="mutants by operator and file")
    parser.add_argument("--members", action="store_true", help="every member the parser found")
    args = parser.parse_args(argv)
    if args.members:
        spec = PORTS[args.port]
        folder, paths = port_files(args.port)
        for p in paths:
            f = SourceFile(str(p.relative_to(folder)), p.read_text(), LANGUAGES[spec["language"]])
            for m in f.members:
                print(f"{f.relpath}:{f.tokens[m.first].line}  {m.kind:11} {m.name}"
                      + (f"  -> {m.returns}" if m.returns else ""))
        return 0
    mutants = generate(args.port)
    if args.list:
        for m in mutants:
            print(f"{m['id']:5}  {m['key']}\n       {m['original']}  ->  {m['mutant']}")
    if args.counts or not args.list:
        by = {}
        for m in mutants:
            by[m["operator"]] = by.get(m["operator"], 0) + 1
        files = {}
        for m in mutants:
            files[m["file"]] = files.get(m["file"], 0) + 1
        print(f"{len(mutants)} mutants of the {args.port} port")
        for name in (o.name for o in TABLE):
            print(f"  {name:24} {by.get(name, 0)}")
        for name, n in sorted(files.items()):
            print(f"  {name:40} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
