// Command portschemata writes the mutant schemata of the Go port: a copy of
// its module in which every mutation site chooses at run time between the
// original and its mutants, as mutation/schemata.py does for the C++ core
// with libclang. The operators are the table at the top of operators.go,
// named as in mutation/operators.py where the slip is the same. It is a
// module of its own, standard library only, so it runs from its directory:
//
//	cd mutation/ports/go
//	../../../scripts/go-env /tmp/go go run . --src ../../../conformance/adapters/go \
//	    --out /tmp/go-schemata [--loop main] [--go /usr/bin/go]
//
// scripts/go-env gives it the Go environment every build here shares:
// offline, with its caches in the directory named (/tmp/go). From the
// repository's root, go run ./mutation/ports/go fails: the root has no
// go.mod. Its tests: go test . in the same directory, through go-env too.
//
// DIR (--out) gets the copy, a mutant_runtime.go in each package, the
// adapter built as DIR/retrypolicy-adapter (named after the main package's
// directory) and DIR/manifest.json: each mutant in the build, with its id and
// its stable key "file | function | operator change | occurrence". The
// occurrence counts every mutant the operators made, dropped ones too, so a
// key does not move when another mutant is dropped.
//
// At run time ACEMQ_MUTANT=<id> activates one mutant (unset or 0: the
// original, bit for bit). ACEMQ_MUTANT_TRACE=<file> appends "L" before each
// request is read (at the top of the first for loop of --loop, in package
// main) and each id whose switch is evaluated, once between two L's. A
// function runs a verbatim copy of its original body when nothing is traced
// and none of its own mutants is active, so the switches cost one test per
// call.
//
// The generator does not type-check, so some mutants may not compile: it
// builds with -gcflags=<module>/...=-e, blames each error on the mutants
// whose switch holds it, drops them and builds again (at most 8 rounds). It
// lists each dropped mutant and why on stderr and prints a summary. It never
// writes into --src, and it replaces --out only if that is empty or holds an
// earlier schemata.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

type options struct {
	src, out, loop, goTool string
	build                  bool
	log                    io.Writer // the drop list
}

type manifestMutant struct {
	ID          int    `json:"id"`
	Key         string `json:"key"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Column      int    `json:"column"`
	Function    string `json:"function"`
	Operator    string `json:"operator"`
	Change      string `json:"change"`
	Occurrence  int    `json:"occurrence"`
	Original    string `json:"original"`
	Mutant      string `json:"mutant"`
	Fingerprint string `json:"fingerprint"`
}

type manifestOperator struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

type manifest struct {
	Port      string             `json:"port"`
	Generator string             `json:"generator"`
	Operators []manifestOperator `json:"operators"`
	Mutants   []manifestMutant   `json:"mutants"`
}

type result struct {
	manifest manifest
	dropped  []*candidate
	binary   string
	rounds   int
}

const maxRounds = 8

func main() {
	var o options
	flag.StringVar(&o.src, "src", "", "the port's module (read only)")
	flag.StringVar(&o.out, "out", "", "where the schemata goes (replaced if it holds an earlier one)")
	flag.StringVar(&o.loop, "loop", "main", "the function of package main whose first for loop is the request loop")
	flag.StringVar(&o.goTool, "go", "go", "the go command")
	flag.Parse()
	if o.src == "" || o.out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: portschemata --src PORT --out DIR [--loop main] [--go go]")
		os.Exit(2)
	}
	o.build, o.log = true, os.Stderr
	r, err := generate(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "portschemata:", err)
		os.Exit(1)
	}
	fmt.Println(summary(r))
}

func summary(r *result) string {
	counts := map[string]int{}
	for _, m := range r.manifest.Mutants {
		counts[m.Operator]++
	}
	var parts []string
	for _, op := range table {
		parts = append(parts, fmt.Sprintf("%s %d", op.name, counts[op.name]))
	}
	noHost := 0
	for _, c := range r.dropped {
		if strings.HasPrefix(c.drop, "no place") {
			noHost++
		}
	}
	return fmt.Sprintf("portschemata: %d mutants in %s (%s); dropped %d (%d with no place for a switch, %d refused by the compiler or vet, %d build rounds)",
		len(r.manifest.Mutants), r.binary, strings.Join(parts, ", "), len(r.dropped), noHost, len(r.dropped)-noHost, r.rounds)
}

func generate(o options) (*result, error) {
	src, err := filepath.Abs(o.src)
	if err != nil {
		return nil, err
	}
	if src, err = filepath.EvalSymlinks(src); err != nil {
		return nil, err
	}
	out, err := prepareOut(src, o.out)
	if err != nil {
		return nil, err
	}
	p, err := load(src, o.loop)
	if err != nil {
		return nil, err
	}
	if err := copyTree(src, out); err != nil {
		return nil, err
	}
	// A manifest with no mutants until the build succeeds: DIR is ours to
	// replace next time even if this run fails.
	stub, _ := json.Marshal(manifest{Port: "go", Generator: "mutation/ports/go", Mutants: []manifestMutant{}})
	if err := os.WriteFile(filepath.Join(out, "manifest.json"), stub, 0o644); err != nil {
		return nil, err
	}
	r := &result{}
	var mainDir string
	for _, f := range p.files {
		if f.marker >= 0 {
			mainDir = f.dir
		}
	}
	r.binary = filepath.Join(out, filepath.Base(filepath.Join(src, mainDir)))
	for _, c := range p.cands {
		if c.drop != "" {
			r.dropped = append(r.dropped, c)
		}
	}
	for round := 1; ; round++ {
		r.rounds = round
		sites, count := p.number()
		renders := map[string]rendered{}
		packages := map[string]string{}
		for _, f := range p.files {
			rf := f.render(sites[f])
			renders[f.rel] = rf
			packages[f.dir] = f.pkg
			if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(f.rel)), []byte(rf.text), 0o644); err != nil {
				return nil, err
			}
		}
		for dir, pkg := range packages {
			text := runtimeSource(memberRuntime, pkg, p.modulePath, count)
			if dir == "." {
				text = runtimeSource(hubRuntime, pkg, "", count)
			}
			if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(dir), runtimeFile), []byte(text), 0o644); err != nil {
				return nil, err
			}
		}
		if !o.build {
			break
		}
		output, err := goBuild(o.goTool, out, p.modulePath, r.binary, mainDir)
		refused := "the compiler refuses it: "
		if err == nil {
			// go test vets before it tests: a mutant arm that vet's checks
			// reject (x == 'a' && x == 'b') would fail the copy's go test.
			if output, err = goCommand(o.goTool, out, "test", "-buildvcs=false", "-count=1", "-run", "^$", "./..."); err == nil {
				break
			}
			refused = "go test's vet refuses it: "
		}
		blamed, unplaced := blameErrors(out, output, renders, refused)
		if len(unplaced) > 0 || len(blamed) == 0 {
			return nil, fmt.Errorf("the schemata does not build, and not because of a mutant:\n%s", output)
		}
		if round == maxRounds {
			return nil, fmt.Errorf("the schemata still does not build after %d rounds:\n%s", round, output)
		}
		for _, c := range blamed {
			r.dropped = append(r.dropped, c)
		}
	}
	sort.SliceStable(r.dropped, func(i, j int) bool { return r.dropped[i].seq < r.dropped[j].seq })
	for _, c := range r.dropped {
		fmt.Fprintf(o.log, "dropped %s (%s:%d): %s\n", c.key, c.f.rel, c.line, c.drop)
	}
	r.manifest = manifest{Port: "go", Generator: "mutation/ports/go"}
	for _, op := range table {
		r.manifest.Operators = append(r.manifest.Operators, manifestOperator{op.name, op.reason})
	}
	for _, c := range p.cands {
		if c.drop != "" {
			continue
		}
		r.manifest.Mutants = append(r.manifest.Mutants, manifestMutant{ID: c.id, Key: c.key, File: c.f.rel,
			Line: c.line, Column: c.column, Function: c.function, Operator: c.operator, Change: c.change,
			Occurrence: c.occurrence, Original: c.original, Mutant: c.mutant, Fingerprint: c.fingerprint})
	}
	sort.Slice(r.manifest.Mutants, func(i, j int) bool { return r.manifest.Mutants[i].ID < r.manifest.Mutants[j].ID })
	data, err := json.MarshalIndent(r.manifest, "", " ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, "manifest.json"), append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	return r, nil
}

// prepareOut refuses an --out that is --src, inside it or around it, and
// replaces an earlier schemata; anything else that is not empty is kept.
func prepareOut(src, out string) (string, error) {
	out, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	if resolved, err := filepath.EvalSymlinks(out); err == nil {
		out = resolved
	}
	sep := string(filepath.Separator)
	if out == src || strings.HasPrefix(out, src+sep) || strings.HasPrefix(src, out+sep) {
		return "", fmt.Errorf("--out %s overlaps --src %s, which is never written", out, src)
	}
	entries, err := os.ReadDir(out)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if len(entries) > 0 {
		var m manifest
		data, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
		if json.Unmarshal(data, &m) != nil || m.Generator != "mutation/ports/go" {
			return "", fmt.Errorf("--out %s is not empty and holds no earlier schemata: not replacing it", out)
		}
		if err := os.RemoveAll(out); err != nil {
			return "", err
		}
	}
	return out, os.MkdirAll(out, 0o755)
}

// copyTree copies the port's files as they are; the mutated ones are
// written over them.
func copyTree(src, out string) error {
	return filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if info.IsDir() {
			if rel != "." && strings.HasPrefix(info.Name(), ".") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(out, rel), 0o755)
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, rel), data, info.Mode().Perm())
	})
}

// goBuild builds the adapter with every error reported (-e), for the
// module's own packages only, so the standard library is not rebuilt.
func goBuild(goTool, dir, module, binary, mainDir string) (string, error) {
	return goCommand(goTool, dir, "build", "-buildvcs=false", "-gcflags="+module+"/...=-e", "-o", binary, "./"+mainDir)
}

func goCommand(goTool, dir string, args ...string) (string, error) {
	cmd := exec.Command(goTool, args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for _, kv := range []string{"GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off"} {
		if os.Getenv(strings.SplitN(kv, "=", 2)[0]) == "" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	output, err := cmd.CombinedOutput()
	return string(output), err
}

var errorLine = regexp.MustCompile(`^(.+?\.go):(\d+):(\d+): (.*)$`)

// blameErrors drops, for each error, the mutants it is blamed on
// (see rendered.blame); unplaced are the errors no mutant explains.
func blameErrors(dir, output string, renders map[string]rendered, refused string) (blamed []*candidate, unplaced []string) {
	seen := map[*candidate]bool{}
	for _, line := range strings.Split(output, "\n") {
		m := errorLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		rel, err := filepath.Rel(dir, file)
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		r, ok := renders[filepath.ToSlash(rel)]
		if err != nil || !ok {
			unplaced = append(unplaced, line)
			continue
		}
		cands := r.blame(ln, col)
		if len(cands) == 0 {
			unplaced = append(unplaced, line)
			continue
		}
		for _, c := range cands {
			if !seen[c] {
				seen[c] = true
				c.drop = refused + m[4]
				blamed = append(blamed, c)
			}
		}
	}
	return blamed, unplaced
}
