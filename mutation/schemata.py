#!/usr/bin/env python3
"""schemata: every mutant of the core in one generated copy of src/.

Reads the real sources with libclang (python3-clang-14), finds every site an
operator of operators.py applies to, and writes a copy of src/ in which each
site chooses at run time between the original and each of its mutants:

    a > b   becomes   (mutant_on(17) ? (a >= b) : mutant_on(18) ? ... : (a > b))

`mutant_on(id)` compares with the id read once from ACEMQ_MUTANT (0, or unset,
runs the real core), so the whole project is built once and every mutant is a
process with one environment variable set. Only one mutant is active at a
time, so a mutant's own text is the original text with its one change: the
sites nested inside it need no switches there.

The real src/ is never written. Besides the copy, writes manifest.json: for
each mutant its id, stable key (file, function, operator, occurrence), the
line and column of its site, the original and mutated text, and the
fingerprint of the function it is in (so a changed site is noticed).

  schemata.py --src src --out BUILD/schemata     # what CMake runs at configure time
  schemata.py --src src --list                   # the mutants, one a line
"""
import argparse
import dataclasses
import hashlib
import json
import pathlib
import sys

sys.path.append("/usr/lib/python3/dist-packages")  # Debian's python3-clang-14
import clang.cindex as ci  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import operators  # noqa: E402
from framework import Keys  # noqa: E402

# The core's sources that hold arithmetic, validation or a draw, relative to
# src/. Every other file of src/ is copied as it is.
CORE = [
    "acemq/amqp/retry_policy.cc",
    "acemq/amqp/retry_policy.hpp",
    "acemq/amqp/delay_range.hpp",
    "acemq/amqp/ruby_random.hpp",
    "acemq/amqp/uniform_source.cc",
    "acemq/amqp/internal/thread_engine.hpp",
]

SWITCH = "::acemq::amqp::internal::mutant_on"
SITE = "::acemq::amqp::internal::mutant_site"
RUNTIME_HEADER = "acemq/amqp/internal/mutant_switch.hpp"

K = ci.CursorKind
FUNCTIONS = {K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.FUNCTION_TEMPLATE,
             K.CONVERSION_FUNCTION}
CLASSES = {K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE}


@dataclasses.dataclass
class Mutant:
    operator: str     # the operator's name in operators.TABLE
    change: str       # what it does here, e.g. "> -> >="
    text: str         # the site's text with the change made
    id: int = 0
    key: str = ""


@dataclasses.dataclass
class Site:
    start: int
    end: int
    kind: str                 # "expr", "cond" (contextually bool) or "stmt"
    function: str
    fingerprint: str
    line: int
    column: int
    mutants: list = dataclasses.field(default_factory=list)
    # Side-effect free and of a built-in type: the traced run evaluates the
    # original and every mutant here and records whether any value differs,
    # so that only a test where a mutant changes a value is run against it.
    pure: bool = False
    capture: str = "&"  # "" where no lambda may capture (a default argument)


class Node:
    """A cursor with the file's text at hand."""

    def __init__(self, cursor, source):
        self.c = cursor
        self.source = source

    @property
    def start(self):
        return self.c.extent.start.offset

    @property
    def end(self):
        return self.c.extent.end.offset

    @property
    def text(self):
        return self.source[self.start:self.end]

    def children(self):
        return [Node(ch, self.source) for ch in self.c.get_children()]

    def tokens(self):
        return list(self.c.get_tokens())


def strip(node):
    """Through implicit conversions and parentheses to the expression itself."""
    while node.c.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR) and len(node.children()) == 1:
        node = node.children()[0]
    return node


def qualified_name(cursor):
    parts = []
    c = cursor
    while c is not None and c.kind != K.TRANSLATION_UNIT:
        if c.kind in FUNCTIONS or c.kind in CLASSES or c.kind == K.FIELD_DECL:
            parts.append(c.displayname or c.spelling)
        elif c.kind == K.NAMESPACE:
            parts.append(c.spelling or "(anonymous)")
        c = c.semantic_parent
    return "::".join(reversed(parts))


def token_fingerprint(cursor):
    """A hash of the tokens of `cursor`: comments and layout do not count."""
    digest = hashlib.sha256()
    for t in cursor.get_tokens():
        digest.update(t.spelling.encode() + b"\0")
    return digest.hexdigest()[:16]


class FileMutator:
    def __init__(self, relpath, path, include_dirs):
        self.relpath = relpath
        self.path = str(path)
        self.source = pathlib.Path(path).read_text()
        args = ["-x", "c++", "-std=c++20"] + [f"-I{d}" for d in include_dirs]
        self.tu = ci.Index.create().parse(self.path, args=args)
        errors = [d for d in self.tu.diagnostics if d.severity >= ci.Diagnostic.Error]
        if errors:
            raise SystemExit(f"schemata: libclang cannot parse {relpath}: {errors[0]}")
        self.sites = {}  # (start, end) -> Site

    # ---- helpers the operators use -----------------------------------------

    def in_this_file(self, cursor):
        return cursor.location.file is not None and cursor.location.file.name == self.path

    def site(self, node, kind, context):
        key = (node.start, node.end)
        site = self.sites.get(key)
        if site is None:
            loc = node.c.extent.start
            site = Site(node.start, node.end, kind, context.function, context.fingerprint,
                        loc.line, loc.column)
            site.pure = kind != "stmt" and operators.pure(node)
            site.capture = "" if context.default_argument else "&"
            self.sites[key] = site
        elif kind == "cond":
            site.kind = "cond"
        return site

    def statement_end(self, node):
        """The end of a statement, its semicolon included."""
        end = node.end
        rest = self.source[end:]
        stripped = rest.lstrip()
        if stripped.startswith(";"):
            end += len(rest) - len(stripped) + 1
        return end

    def add(self, node, kind, context, operator, change, text, end=None):
        if context.constant:
            return
        if end is not None:
            node = _Span(node, end)
        self.site(node, kind, context).mutants.append(Mutant(operator, change, text))

    def replace_in(self, node, start, end, new):
        """The text of `node` with [start, end) of the file replaced by `new`."""
        return self.source[node.start:start] + new + self.source[end:node.end]

    # ---- the walk ------------------------------------------------------------

    def collect(self):
        self._visit(Node(self.tu.cursor, self.source), Context())
        return sorted(self.sites.values(), key=lambda s: (s.start, -s.end))

    def _visit(self, node, context):
        for child in node.children():
            if not self.in_this_file(child.c):
                continue
            inner = context.enter(child, self)
            operators.apply_all(self, child, inner)
            self._visit(child, inner)


class _Span:
    """A node whose extent ends somewhere else (a statement and its ';')."""

    def __init__(self, node, end):
        self.c = node.c
        self.source = node.source
        self.start = node.start
        self.end = end

    @property
    def text(self):
        return self.source[self.start:self.end]


@dataclasses.dataclass
class Context:
    function: str = ""
    fingerprint: str = ""
    function_cursor: object = None
    class_cursor: object = None
    constant: bool = False      # a constant expression: no run-time switch can go here
    noreturn: bool = False
    default_argument: bool = False  # a default argument or member initializer

    def enter(self, node, mutator):
        c = node.c
        inner = dataclasses.replace(self)
        if c.kind in FUNCTIONS:
            inner.function = qualified_name(c)
            inner.fingerprint = token_fingerprint(c)
            inner.function_cursor = c
            head = [t.spelling for t in c.get_tokens()]
            body = head.index("{") if "{" in head else len(head)
            inner.constant = self.constant or "constexpr" in head[:body] or "consteval" in head[:body]
            # An attribute before the declaration lies outside its extent.
            before = mutator.source[:node.start].rstrip()
            attribute = before[before.rfind("[["):] if before.endswith("]]") else ""
            inner.noreturn = "noreturn" in head[:body] or "noreturn" in attribute
            # Or on its first declaration, in a header ([[noreturn]] static void f();).
            first = c.canonical
            if first is not None and first != c and first.location.file is not None:
                text = pathlib.Path(first.location.file.name).read_text()
                before = text[:first.extent.start.offset].rstrip()
                if before.endswith("]]") and "noreturn" in before[before.rfind("[["):]:
                    inner.noreturn = True
        elif c.kind in CLASSES:
            inner.class_cursor = c
        elif c.kind == K.FIELD_DECL and not self.function:
            inner.function = qualified_name(c)
            inner.fingerprint = token_fingerprint(c)
        if c.kind in (K.PARM_DECL, K.FIELD_DECL):
            inner.default_argument = True
        if c.kind == K.VAR_DECL:
            spelled = [t.spelling for t in c.get_tokens()]
            if "constexpr" in spelled or "constinit" in spelled:
                inner.constant = True
            if c.type.kind in (ci.TypeKind.CONSTANTARRAY,):
                # The size of an array is a constant expression; its
                # initializer, if any, is not, but the core has none.
                inner.constant = True
        if c.kind in (K.STATIC_ASSERT, K.ENUM_DECL, K.ENUM_CONSTANT_DECL, K.TEMPLATE_REF,
                      K.TYPE_REF, K.TEMPLATE_NON_TYPE_PARAMETER):
            inner.constant = True
        if c.kind == K.UNEXPOSED_DECL:  # a template specialization such as enable_borrowed_range
            inner.constant = True
        return inner


def generate(src, include_dirs):
    """Every site of every core file, each mutant numbered and keyed."""
    files = {}
    for rel in CORE:
        mutator = FileMutator(rel, src / rel, [str(src)] + include_dirs)
        files[rel] = (mutator, mutator.collect())
    next_id = 1
    keys = Keys()
    for rel, (mutator, sites) in files.items():
        for site in sites:
            for m in site.mutants:
                m.id = next_id
                next_id += 1
                m.key, _ = keys.key(pathlib.Path(rel).name, site.function, m.operator, m.change)
    return files


def instrument(source, sites):
    """The file's text with every site switched; sites nest, never overlap."""
    sites = sorted(sites, key=lambda s: (s.start, -s.end))
    out = []

    def render(lo, hi, inner_sites):
        """Text of [lo, hi) with the given (nested-sorted) sites rendered."""
        pieces, at, i = [], lo, 0
        while i < len(inner_sites):
            s = inner_sites[i]
            j = i + 1
            while j < len(inner_sites) and inner_sites[j].start < s.end:
                j += 1
            pieces.append(source[at:s.start])
            pieces.append(wrap(s, render(s.start, s.end, inner_sites[i + 1:j])))
            at, i = s.end, j
        pieces.append(source[at:hi])
        return "".join(pieces)

    def wrap(site, original):
        if site.kind == "stmt":
            text = "{ "
            for m in site.mutants:
                text += f"if ({SWITCH}({m.id})) {{ {m.text} }} else "
            return text + f"{{ {original} }} }}"
        cast = (lambda t: f"static_cast<bool>({t})") if site.kind == "cond" else (lambda t: f"({t})")
        if site.pure:
            ids = ", ".join(str(m.id) for m in site.mutants)
            lam = lambda t: f"[{site.capture}] {{ return {cast(t)}; }}"  # noqa: E731
            alternatives = ", ".join(lam(m.text) for m in site.mutants)
            return f"{SITE}({{{ids}}}, {lam(original)}, {alternatives})"
        text = "("
        for m in site.mutants:
            text += f"{SWITCH}({m.id}) ? {cast(m.text)} : "
        return text + cast(original) + ")"

    out.append(render(0, len(source), sites))
    return "".join(out)


def include_runtime(relpath, text):
    # A mutant may swap && for || inside ||, or overflow a constant: the
    # compiler's warnings about that say nothing about the real core.
    line = (f'#include "{RUNTIME_HEADER}"  // generated: the mutant switch\n'
            '#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored "-Wparentheses"\n'
            '#pragma GCC diagnostic ignored "-Woverflow"\n')
    text = text + "#pragma GCC diagnostic pop\n"
    if "#pragma once\n" in text:
        return text.replace("#pragma once\n", "#pragma once\n" + line, 1)
    return line + text


RUNTIME = """// Generated by mutation/schemata.py: the switch every mutant site asks.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace acemq::amqp::internal {

// The mutant this process runs, read once from ACEMQ_MUTANT (0: none), and
// where it records the sites it reaches (ACEMQ_MUTANT_TRACE=DIR): 1 reached,
// 2 reached and a mutant there would have changed a value.
struct MutantSwitch {
  int active;
  unsigned char* reached;  // null unless tracing
};
MutantSwitch load_mutant_switch() noexcept;

inline const MutantSwitch& mutant_switch() noexcept {
  static const MutantSwitch state = load_mutant_switch();
  return state;
}

inline bool mutant_on(int id) noexcept {
  const MutantSwitch& s = mutant_switch();
  if (s.reached != nullptr && s.reached[id] == 0) s.reached[id] = 1;
  return s.active == id;
}

template <typename T>
bool mutant_differs(const T& a, const T& b) noexcept {
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(a) != std::bit_cast<std::uint64_t>(b);
  } else {
    return !(a == b);
  }
}

// A side-effect-free site: the original and its mutants as lambdas. Traced,
// every one is evaluated and compared with the original.
template <std::size_t N, typename Original, typename... Mutated>
auto mutant_site(const int (&ids)[N], Original original, Mutated... mutated) noexcept {
  static_assert(N == sizeof...(Mutated));
  const MutantSwitch& s = mutant_switch();
  const auto value = original();
  if (s.reached != nullptr) {
    std::size_t i = 0;
    ((s.reached[ids[i]] = mutant_differs(value, static_cast<decltype(value)>(mutated())) ? 2
                          : s.reached[ids[i]] == 2 ? 2 : 1, ++i), ...);
    return value;
  }
  std::size_t i = 0;
  auto result = value;
  ((ids[i] == s.active ? (void)(result = static_cast<decltype(value)>(mutated())) : (void)0, ++i),
   ...);
  return result;
}

}  // namespace acemq::amqp::internal
"""

RUNTIME_SOURCE = """// Generated by mutation/schemata.py: reading the mutant switch.
#include "acemq/amqp/internal/mutant_switch.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

namespace acemq::amqp::internal {
namespace {

constexpr int kMutants = @COUNT@;
unsigned char reached[kMutants + 1];
std::string trace_path;

void write_trace() {
  std::FILE* out = std::fopen(trace_path.c_str(), "w");
  if (out == nullptr) return;
  for (int id = 1; id <= kMutants; ++id) {
    if (reached[id] != 0) std::fprintf(out, "%d %d\\n", id, reached[id]);
  }
  std::fclose(out);
}

}  // namespace

MutantSwitch load_mutant_switch() noexcept {
  MutantSwitch s{0, nullptr};
  if (const char* id = std::getenv("ACEMQ_MUTANT"); id != nullptr && *id != '\\0') {
    char* end = nullptr;
    const long value = std::strtol(id, &end, 10);
    if (*end != '\\0' || value < 0 || value > kMutants) {
      std::fprintf(stderr, "ACEMQ_MUTANT=%s: no such mutant (1..%d)\\n", id, kMutants);
      std::_Exit(97);
    }
    s.active = static_cast<int>(value);
  }
  if (const char* dir = std::getenv("ACEMQ_MUTANT_TRACE"); dir != nullptr && *dir != '\\0') {
    trace_path = std::string(dir) + "/" + std::to_string(getpid()) + ".reached";
    s.reached = reached;
    std::atexit(write_trace);
  }
  return s;
}

}  // namespace acemq::amqp::internal
"""


def write_if_changed(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--src", type=pathlib.Path, required=True, help="the real src/ directory")
    p.add_argument("--out", type=pathlib.Path, help="where the generated copy goes")
    p.add_argument("--include", action="append", default=[], help="extra include directories")
    p.add_argument("--list", action="store_true", help="print the mutants and stop")
    args = p.parse_args()
    src = args.src.resolve()
    files = generate(src, args.include)
    mutants = []
    for rel, (mutator, sites) in files.items():
        for site in sites:
            for m in site.mutants:
                mutants.append({
                    "id": m.id, "key": m.key, "file": rel, "function": site.function,
                    "operator": m.operator, "change": m.change, "line": site.line,
                    "column": site.column, "original": mutator.source[site.start:site.end],
                    "mutated": m.text, "fingerprint": site.fingerprint, "pure": site.pure,
                })
    if args.list:
        for m in mutants:
            print(f"{m['id']:4}  {m['file']}:{m['line']}:{m['column']}  {m['key']}")
        print(f"{len(mutants)} mutants")
        return 0
    out = args.out.resolve()
    for path in sorted(src.rglob("*")):
        if not path.is_file():
            continue
        rel = str(path.relative_to(src))
        text = path.read_text()
        if rel in files:
            mutator, sites = files[rel]
            text = include_runtime(rel, instrument(mutator.source, sites))
        write_if_changed(out / "src" / rel, text)
    write_if_changed(out / "src" / RUNTIME_HEADER, RUNTIME)
    write_if_changed(out / "src" / "acemq/amqp/internal/mutant_switch.cc",
                     RUNTIME_SOURCE.replace("@COUNT@", str(len(mutants))))
    manifest = {"mutants": mutants,
                "operators": [{"name": o.name, "reason": o.reason} for o in operators.TABLE]}
    write_if_changed(out / "manifest.json", json.dumps(manifest, indent=1) + "\n")
    print(f"schemata: {len(mutants)} mutants of {len(files)} files in {out / 'src'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
