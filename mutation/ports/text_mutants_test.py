#!/usr/bin/env python3
"""Tests of text_mutants.py, on the real Java and .NET ports and on snippets:
ids and keys unique, every operator makes mutants in each port, each mutant
changes one site and its file, nothing is mutated inside a comment or a
literal, and a key survives an edit to another method.

    python3 -m unittest mutation/ports/text_mutants_test.py     (from the repository)
"""
import importlib.util
import pathlib
import unittest

HERE = pathlib.Path(__file__).resolve().parent

spec = importlib.util.spec_from_file_location("text_mutants", HERE / "text_mutants.py")
text_mutants = importlib.util.module_from_spec(spec)
spec.loader.exec_module(text_mutants)

# Keys that must name what they name: the enclosing Class.method found
# through nesting, overloads and properties.
KNOWN = {
    "java": ["RetryPolicy.java | RetryPolicy.capped | relational > -> >= | 1",
             "RetryPolicy.java | RetryPolicy.nextDelay(long, double, boolean, DoubleSupplier) | "
             "condition-negated c -> !c | 0",
             "adapter/Ops.java | Ops.withinCostLimit | bits-to-values "
             "Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(b) -> a == b | 0"],
    "dotnet": ["src/RetryPolicy.cs | RetryPolicy.Capped | relational > -> >= | 1",
               "src/RetryPolicy.cs | RetryPolicy.NextDelay(long, double, Func<double>) | "
               "statement-deleted assignment -> nothing | 0",
               "src/RetryPolicy.cs | RetryPolicy.Walk | bits-to-values IsNegative(x) -> x < 0 | 0"],
}

JAVA = '''package p;
// a < b > c in a comment: 1 + 2 == 3
final class Box<T extends Comparable<T>> {
    /* block: if (x) return 1; */
    static final String TEXT = "x < y ? 1 : 2 + 3";
    static final char C = '<';
    static final String BLOCK = """
        a > b && c""";
    private final java.util.Map<String, java.util.List<Integer>> map = null;

    int first(int a, int b) {
        if (a < b) {
            return a + 1;
        }
        return "s" + a + b == null ? 0 : b;
    }

    int second(int n) {
        int total = 0;
        for (int i = 0; i < n; i++) {
            total += i;
        }
        return total;
    }
}
'''

CSHARP = '''namespace N
{
    public sealed class Box
    {
        private const string Verbatim = @"a < b ""quoted"" && c";
        private static string Show(int x) { return $"{x + 1} > {(x < 2 ? "a" : "b")}"; }
        public double? Maybe { get { return flag ? 1.0 : (double?)null; } }
        private bool flag;

        public int Twice(int a)
        {
            double? d = null;
            return a * 2;
        }
    }
}
'''


def mutants_of(text, language, relpath="Snippet"):
    """The edits every operator makes in one snippet: (operator, change, member, site text)."""
    f = text_mutants.SourceFile(relpath, text, text_mutants.LANGUAGES[language])
    out = []
    for operator in text_mutants.TABLE:
        for edit in operator.apply(f):
            site = text[f.tokens[edit.first].start:f.tokens[edit.last].end]
            out.append((operator.name, edit.change, f.member_at[edit.first].name, site, edit))
    return f, out


class PortsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ports = {port: text_mutants.generate(port) for port in text_mutants.PORTS}

    def test_ids_and_keys_are_unique(self):
        for port, mutants in self.ports.items():
            with self.subTest(port=port):
                keys = [m["key"] for m in mutants]
                self.assertEqual(len(keys), len(set(keys)))
                self.assertEqual([m["id"] for m in mutants], list(range(1, len(mutants) + 1)))

    def test_every_operator_makes_mutants_in_each_port(self):
        for port, mutants in self.ports.items():
            made = {m["operator"] for m in mutants}
            for operator in text_mutants.TABLE:
                with self.subTest(port=port, operator=operator.name):
                    self.assertIn(operator.name, made)

    def test_each_mutant_changes_one_site_of_its_file(self):
        for port, mutants in self.ports.items():
            folder, _ = text_mutants.port_files(port)
            texts = {}
            for m in mutants:
                text = texts.setdefault(m["path"], (folder / m["path"]).read_text())
                mutated = text_mutants.apply(text, m)
                with self.subTest(port=port, key=m["key"]):
                    self.assertNotEqual(mutated, text)
                    # Only [start, end) differs: the prefix and the suffix are the original's.
                    self.assertEqual(mutated[:m["start"]], text[:m["start"]])
                    self.assertEqual(mutated[len(mutated) - (len(text) - m["end"]):],
                                     text[m["end"]:])
                    self.assertLess(m["start"], m["end"])

    def test_known_keys_name_their_method(self):
        for port, keys in KNOWN.items():
            have = {m["key"] for m in self.ports[port]}
            for key in keys:
                with self.subTest(key=key):
                    self.assertIn(key, have)

    def test_a_function_has_one_fingerprint(self):
        for port, mutants in self.ports.items():
            prints = {}
            for m in mutants:
                prints.setdefault((m["file"], m["function"]), set()).add(m["fingerprint"])
            with self.subTest(port=port):
                self.assertEqual([k for k, v in prints.items() if len(v) > 1], [])


class SnippetTest(unittest.TestCase):
    def test_nothing_in_comments_or_literals(self):
        for text, language in ((JAVA, "java"), (CSHARP, "csharp")):
            f, edits = mutants_of(text, language)
            literals = [(t.start, t.end) for t in f.tokens if t.kind in ("str", "chr")]
            for operator, change, member, site, edit in edits:
                start, end = f.tokens[edit.first].start, f.tokens[edit.last].end
                with self.subTest(language=language, change=change, site=site):
                    # A literal may be replaced whole (return-default), never inside.
                    self.assertFalse([(a, b) for a, b in literals if a < start < b or a < end < b])
                    self.assertNotIn("comment", site)
                    if member == "Box.Show":
                        self.assertEqual(operator, "return-default")

    def test_generics_are_not_relational(self):
        f, edits = mutants_of(JAVA, "java")
        relational = [site for name, _, _, site, _ in edits if name == "relational"]
        self.assertEqual(sorted(relational), ["<", "<"])  # a < b, i < n

    def test_string_concatenation_is_not_arithmetic(self):
        f, edits = mutants_of(JAVA, "java")
        plus = [(member, site) for name, change, member, site, _ in edits
                if name == "arithmetic" and change == "+ -> -"]
        self.assertEqual(plus, [("Box.first", "+")])  # a + 1 alone, not "s" + a + b

    def test_members_and_nullable_types(self):
        f, edits = mutants_of(CSHARP, "csharp")
        self.assertEqual({member for _, _, member, _, _ in edits},
                         {"Box.Show", "Box.Maybe", "Box.Twice"})
        arms = [site for name, _, _, site, _ in edits if name == "ternary-arms"]
        self.assertEqual(arms, ["flag ? 1.0 : (double?)null"] * 2)

    def test_a_key_survives_an_edit_to_another_method(self):
        edited = JAVA.replace("total += i;", "total += i;\n            total -= 1;")
        before = mutants_of(JAVA, "java")[1]
        after = mutants_of(edited, "java")[1]
        first = [(n, c, s) for n, c, m, s, _ in before if m == "Box.first"]
        self.assertEqual(first, [(n, c, s) for n, c, m, s, _ in after if m == "Box.first"])
        prints = [{m.name: m.fingerprint for m in text_mutants.SourceFile(
            "S", text, text_mutants.JAVA).members} for text in (JAVA, edited)]
        self.assertEqual(prints[0]["Box.first"], prints[1]["Box.first"])
        self.assertNotEqual(prints[0]["Box.second"], prints[1]["Box.second"])


if __name__ == "__main__":
    unittest.main()
