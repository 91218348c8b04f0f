package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const port = "../../../conformance/adapters/go"

func generateInto(t *testing.T, src string, build bool) (*result, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "schemata")
	r, err := generate(options{src: src, out: out, loop: "main", goTool: "go", build: build, log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	return r, out
}

// From the real port: ids and keys unique, every operator of the table
// present (min-max has no site in the port; see TestMinMax), each
// generated file still Go, and the mutant of Walk's cap test as expected.
func TestRealPort(t *testing.T) {
	r, out := generateInto(t, port, false)
	ids, keys, per := map[int]bool{}, map[string]bool{}, map[string]int{}
	for _, m := range r.manifest.Mutants {
		if ids[m.ID] || keys[m.Key] {
			t.Errorf("id %d or key %q twice", m.ID, m.Key)
		}
		ids[m.ID], keys[m.Key] = true, true
		per[m.Operator]++
		if m.Key != strings.Join([]string{m.File, m.Function, m.Operator + " " + m.Change, itoa(m.Occurrence)}, " | ") {
			t.Errorf("key %q does not spell its fields", m.Key)
		}
		if len(m.Fingerprint) != 64 {
			t.Errorf("%s: fingerprint %q", m.Key, m.Fingerprint)
		}
	}
	for id := 1; id <= len(ids); id++ {
		if !ids[id] {
			t.Fatalf("ids are not 1 to %d: %d missing", len(ids), id)
		}
	}
	for _, op := range table {
		if per[op.name] == 0 && op.name != "min-max" {
			t.Errorf("operator %s has no mutant in the port", op.name)
		}
	}
	found := false
	for _, m := range r.manifest.Mutants {
		if m.Key == "retrypolicy.go | RetryPolicy.Walk | relational > -> >= | 2" {
			found = true
			if m.Original != "d > c" || m.Mutant != "d >= c" {
				t.Errorf("Walk's cap test: %q -> %q, want d > c -> d >= c", m.Original, m.Mutant)
			}
		}
	}
	if !found {
		t.Error("no relational mutant d > c -> d >= c in RetryPolicy.Walk")
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.go"))
	more, _ := filepath.Glob(filepath.Join(out, "cmd", "*", "*.go"))
	for _, path := range append(files, more...) {
		if _, err := parser.ParseFile(token.NewFileSet(), path, nil, 0); err != nil {
			t.Errorf("generated file does not parse: %v", err)
		}
	}
	original, _ := os.ReadFile(filepath.Join(port, "retrypolicy.go"))
	copied, _ := os.ReadFile(filepath.Join(out, "retrypolicy.go"))
	if !strings.Contains(string(copied), "mutantQuietIn(") || string(original) == string(copied) {
		t.Error("retrypolicy.go was not switched")
	}
}

// The fingerprint ignores layout and comments, not code.
func TestFingerprint(t *testing.T) {
	print := func(src string) string {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		f := &sourceFile{fset: fset, prints: map[ast.Node]string{}}
		return f.fingerprint(file.Decls[0])
	}
	a := print("package p\n// doc\nfunc f(x int) int { return x + 1 }\n")
	b := print("package p\n\nfunc f(x int) int {\n\t// why\n\treturn x +\n\t\t1\n}\n")
	c := print("package p\nfunc f(x int) int { return x + 2 }\n")
	if a != b || a == c {
		t.Errorf("fingerprints: %s %s %s", a, b, c)
	}
}

// min-max, on a module that calls math.Max, since the port does not.
func TestMinMax(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/lib\n\ngo 1.19\n")
	write("lib.go", "package lib\n\nimport \"math\"\n\nfunc Pick(a, b float64) float64 { return math.Max(a, b) }\n")
	write("cmd/x/main.go", "package main\n\nimport \"example.com/lib\"\n\nfunc main() {\n\tfor i := 0; i < 2; i++ {\n\t\tprintln(lib.Pick(1, 2))\n\t}\n}\n")
	r, _ := generateInto(t, dir, false)
	for _, m := range r.manifest.Mutants {
		if m.Operator == "min-max" && m.Original == "math.Max(a, b)" && m.Mutant == "math.Min(a, b)" {
			return
		}
	}
	t.Error("no min-max mutant math.Max(a, b) -> math.Min(a, b)")
}

// The whole loop, build included, when a go command is at hand.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the schemata")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	r, _ := generateInto(t, port, true)
	if _, err := os.Stat(r.binary); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(r.binary)
	cmd.Env = append(os.Environ(), "ACEMQ_MUTANT=999999")
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 97 {
		t.Errorf("ACEMQ_MUTANT=999999: %v, want exit 97", err)
	}
}
