package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// messageCalls are the port's calls whose arguments are an error message or
// formatting, which no operator mutates (package fmt's calls too); the
// composite types in messageTypes likewise.
var (
	messageCalls = map[string]bool{"panic": true, "reject": true, "fail": true, "errorAnswer": true, "policyError": true, "sprintf": true}
	messageTypes = map[string]bool{"malformed": true, "protocolError": true}
)

// The identifiers the schemata adds to each package; the port must not
// have them already.
var runtimeNames = []string{"mutantActive", "mutantTracing", "mutantIn", "mutantBit", "mutantPick", "mutantQuo",
	"mutantReach", "mutantLoop", "mutantLoad", "mutantQuietIn", "mutantTrace", "mutantCount", "mutantNumber", "mutantHub",
	"MutantActive", "MutantTracing", "MutantReach", "MutantLoop"}

const runtimeFile = "mutant_runtime.go"

type hostKind int

// Where a mutant's switch goes, from the innermost node up (see findHost).
const (
	hostNone     hostKind = iota
	hostStmt              // if !mutantIn(a, b) { original } else if mutantActive == a { ... } else { ... }
	hostBool              // (!mutantIn(a, b) && (original) || mutantActive == a && (...) || ...)
	hostEager             // mutantPick(a, (mutant), (original)): both pure, cannot panic
	hostShift             // (n + 1<<mutantBit(a) - 1<<mutantBit(b)): an integer literal in a typed context
	hostReassign          // x := e; if mutantIn(a, b) { switch mutantActive { case a: x = ... } }
	hostMarker            // the request loop's mutantLoop() call
	hostDispatch          // if mutantQuietIn(lo, hi) { the original body }, first in a function with switches
)

type program struct {
	root       string
	modulePath string
	files      []*sourceFile
	cands      []*candidate
	loop       string
}

type sourceFile struct {
	rel     string // relative to the port root, slash-separated
	dir     string // the package's directory, relative ("." for the root)
	pkg     string
	src     []byte
	fset    *token.FileSet
	file    *ast.File
	tf      *token.File
	imports map[string]string // local name -> import path
	consts  map[string]bool   // every constant's name in the package, any scope
	needed  map[ast.Node]bool // returns and panics a function needs to end
	prints  map[ast.Node]string
	cands   []*candidate
	marker  int    // where mutantLoop() goes, or -1
	bodies  []body // each function's body
	seq     int
}

// A function's body, from after its { to its }.
type body struct {
	start, end int
	void       bool // no results: the original's copy needs a return after it
	labels     bool // a copy would define its labels twice
}

type walkContext struct {
	stack       []ast.Node // from the file down to the node at hand
	function    string
	fingerprint string
	inFunction  bool
	needed      map[ast.Node]bool
}

type candidate struct {
	f                     *sourceFile
	node                  ast.Node
	chain                 []ast.Node // the file down to node
	start, end            int
	repl                  string
	operator, change      string
	seq                   int
	function, fingerprint string
	line, column          int
	original, mutant      string
	kind                  hostKind
	host                  ast.Node
	hostStart, hostEnd    int
	occurrence            int
	delta                 int    // +1 or -1 for an integer literal's constant mutant
	assignTo              string // for hostReassign: the variable the arm assigns
	armStart, armEnd      int    // what the arm is the changed text of, if not the host
	key                   string
	drop                  string
	id                    int
}

func (f *sourceFile) offset(p token.Pos) int     { return f.tf.Offset(p) }
func (f *sourceFile) text(a, b token.Pos) string { return string(f.src[f.offset(a):f.offset(b)]) }

// load parses every non-test Go file of the port.
func load(root, loop string) (*program, error) {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	p := &program{root: root, loop: loop}
	for _, line := range strings.Split(string(mod), "\n") {
		if fields := strings.Fields(line); len(fields) == 2 && fields[0] == "module" {
			p.modulePath = strings.Trim(fields[1], `"`)
		}
	}
	if p.modulePath == "" {
		return nil, fmt.Errorf("%s: no module line", filepath.Join(root, "go.mod"))
	}
	fset := token.NewFileSet()
	consts := map[string]map[string]bool{}
	err = filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		name := info.Name()
		if info.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		file, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		f := &sourceFile{rel: filepath.ToSlash(rel), dir: filepath.ToSlash(filepath.Dir(rel)), pkg: file.Name.Name,
			src: src, fset: fset, file: file, tf: fset.File(file.Pos()), imports: map[string]string{},
			needed: map[ast.Node]bool{}, prints: map[ast.Node]string{}, marker: -1}
		if consts[f.dir] == nil {
			consts[f.dir] = map[string]bool{}
		}
		f.consts = consts[f.dir]
		p.files = append(p.files, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(p.files, func(i, j int) bool { return p.files[i].rel < p.files[j].rel })
	for _, f := range p.files {
		for _, spec := range f.file.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			name := path[strings.LastIndex(path, "/")+1:]
			if spec.Name != nil {
				name = spec.Name.Name
			}
			f.imports[name] = path
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
				for _, spec := range d.Specs {
					for _, name := range spec.(*ast.ValueSpec).Names {
						f.consts[name.Name] = true
					}
				}
			}
			if id, ok := n.(*ast.Ident); ok {
				for _, r := range runtimeNames {
					if id.Name == r {
						err = fmt.Errorf("%s: the port already has %s, a name the schemata adds", f.rel, r)
					}
				}
			}
			return true
		})
		if err != nil {
			return nil, err
		}
		markNeeded(f)
		for _, d := range f.file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil {
				b := body{start: f.offset(fn.Body.Lbrace) + 1, end: f.offset(fn.Body.Rbrace),
					void: fn.Type.Results == nil || len(fn.Type.Results.List) == 0}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					_, label := n.(*ast.LabeledStmt)
					b.labels = b.labels || label
					return true
				})
				f.bodies = append(f.bodies, b)
			}
		}
	}
	hub := false
	for _, f := range p.files {
		hub = hub || (f.dir == "." && f.pkg != "main")
	}
	if !hub {
		return nil, fmt.Errorf("%s: no non-main package at the module root to hold the shared trace", root)
	}
	for _, f := range p.files {
		f.collect(p)
	}
	if err := p.placeMarker(); err != nil {
		return nil, err
	}
	p.keyAndHost()
	return p, nil
}

// markNeeded finds the returns and panics that end a function with
// results: Go's terminating-statement rules are syntactic, and a function
// whose last statement no longer terminates does not compile.
func markNeeded(f *sourceFile) {
	var mark func(s ast.Stmt)
	mark = func(s ast.Stmt) {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			f.needed[s] = true
		case *ast.ExprStmt:
			if call, ok := s.X.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
					f.needed[s] = true
				}
			}
		case *ast.BlockStmt:
			if len(s.List) > 0 {
				mark(s.List[len(s.List)-1])
			}
		case *ast.IfStmt:
			if s.Else != nil {
				mark(s.Body)
				mark(s.Else)
			}
		case *ast.LabeledStmt:
			mark(s.Stmt)
		case *ast.SwitchStmt:
			markClauses(s.Body, mark)
		case *ast.TypeSwitchStmt:
			markClauses(s.Body, mark)
		case *ast.SelectStmt:
			markClauses(s.Body, mark)
		}
	}
	ast.Inspect(f.file, func(n ast.Node) bool {
		var typ *ast.FuncType
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			typ, body = n.Type, n.Body
		case *ast.FuncLit:
			typ, body = n.Type, n.Body
		}
		if body != nil && typ.Results != nil && len(typ.Results.List) > 0 {
			mark(body)
		}
		return true
	})
}

func markClauses(body *ast.BlockStmt, mark func(ast.Stmt)) {
	for _, c := range body.List {
		var list []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			list = c.Body
		case *ast.CommClause:
			list = c.Body
		}
		if len(list) > 0 {
			mark(list[len(list)-1])
		}
	}
}

// collect applies every operator of the table to every node the schemata
// may change.
func (f *sourceFile) collect(p *program) {
	var stack []ast.Node
	ast.Inspect(f.file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if f.skipped(stack, n) {
			return false
		}
		stack = append(stack, n)
		at := f.contextFor(stack)
		if at.function == "" {
			return true
		}
		for _, op := range table {
			op.apply(f, n, at)
		}
		return true
	})
}

// skipped: a subtree where no switch can go (a constant, a type) or that no
// operator should touch (an error message, formatting).
func (f *sourceFile) skipped(stack []ast.Node, n ast.Node) bool {
	switch n := n.(type) {
	case *ast.GenDecl:
		return n.Tok != token.VAR
	case *ast.ArrayType, *ast.StructType, *ast.InterfaceType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.Field:
		return true
	case *ast.CallExpr:
		switch fun := n.Fun.(type) {
		case *ast.Ident:
			return messageCalls[fun.Name]
		case *ast.SelectorExpr:
			if pkg, ok := fun.X.(*ast.Ident); ok && f.imports[pkg.Name] == "fmt" {
				return true
			}
		}
	case *ast.CompositeLit:
		if id, ok := n.Type.(*ast.Ident); ok && messageTypes[id.Name] {
			return true
		}
	}
	// A literal argument of strconv is a base, a bit size or a format.
	if len(stack) > 0 {
		if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && n != call.Fun {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && f.imports[pkg.Name] == "strconv" {
					switch a := n.(type) {
					case *ast.BasicLit:
						return true
					case *ast.UnaryExpr:
						_, lit := a.X.(*ast.BasicLit)
						return lit
					}
				}
			}
		}
	}
	return false
}

func (f *sourceFile) contextFor(stack []ast.Node) *walkContext {
	at := &walkContext{stack: append([]ast.Node(nil), stack...), needed: f.needed}
	for i, n := range stack {
		switch n := n.(type) {
		case *ast.FuncDecl:
			at.function = n.Name.Name
			if n.Recv != nil && len(n.Recv.List) > 0 {
				at.function = receiverType(n.Recv.List[0].Type) + "." + n.Name.Name
			}
			at.fingerprint = f.fingerprint(n)
			at.inFunction = true
		case *ast.FuncLit:
			at.inFunction = true
		case *ast.ValueSpec:
			if i == 2 { // file, GenDecl, ValueSpec: a package-level variable
				at.function = "<package>"
				at.fingerprint = f.fingerprint(n)
			}
		}
	}
	return at
}

func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// fingerprint is the sha256 of the function (or package-level variable)
// printed with positions and comments stripped, so that layout and comments
// do not count.
func (f *sourceFile) fingerprint(n ast.Node) string {
	if s, ok := f.prints[n]; ok {
		return s
	}
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, token.NewFileSet(), stripped(n)); err != nil {
		panic(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	f.prints[n] = hex.EncodeToString(sum[:])
	return f.prints[n]
}

var (
	posType     = reflect.TypeOf(token.NoPos)
	commentType = reflect.TypeOf((*ast.CommentGroup)(nil))
	objectType  = reflect.TypeOf((*ast.Object)(nil))
	scopeType   = reflect.TypeOf((*ast.Scope)(nil))
)

// stripped is a deep copy of n with every position zero and no comments.
func stripped(n ast.Node) ast.Node {
	return strip(reflect.ValueOf(n)).Interface().(ast.Node)
}

func strip(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Ptr:
		if v.IsNil() || v.Type() == commentType || v.Type() == objectType || v.Type() == scopeType {
			return reflect.Zero(v.Type())
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(strip(v.Elem()))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(strip(v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			c.Index(i).Set(strip(v.Index(i)))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		for i := 0; i < v.NumField(); i++ {
			if c.Field(i).CanSet() {
				c.Field(i).Set(strip(v.Field(i)))
			}
		}
		return c
	}
	if v.Type() == posType {
		return reflect.Zero(posType)
	}
	return v
}

// inStatementList: n is a statement of a block or a case's body, where a
// statement may be wrapped in an if.
func (at *walkContext) inStatementList(n ast.Node) bool {
	if len(at.stack) < 2 || at.stack[len(at.stack)-1] != n {
		return false
	}
	return inList(at.stack[len(at.stack)-2], n)
}

func inList(parent, n ast.Node) bool {
	var list []ast.Stmt
	switch p := parent.(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	for _, s := range list {
		if s == n {
			return true
		}
	}
	return false
}

// topLevel: n is a statement of its function's own body, not an early exit.
func (at *walkContext) topLevel(n ast.Node) bool {
	k := len(at.stack)
	if k < 3 {
		return false
	}
	switch at.stack[k-3].(type) {
	case *ast.FuncDecl, *ast.FuncLit:
		_, block := at.stack[k-2].(*ast.BlockStmt)
		return block
	}
	return false
}

// add records a mutant: node's text becomes repl.
func (f *sourceFile) add(at *walkContext, node ast.Node, operator, change, repl string) *candidate {
	chain := at.stack
	if chain[len(chain)-1] != node {
		chain = append(append([]ast.Node(nil), chain...), node)
	}
	pos := f.fset.Position(node.Pos())
	c := &candidate{f: f, node: node, chain: chain, start: f.offset(node.Pos()), end: f.offset(node.End()),
		repl: repl, operator: operator, change: change, seq: f.seq,
		function: at.function, fingerprint: at.fingerprint, line: pos.Line, column: pos.Column}
	f.seq++
	c.original, c.mutant = f.printed(c)
	f.cands = append(f.cands, c)
	return c
}

// printed: the mutated expression before and after, printed by go/printer.
// A literal or a constant is shown with the expression it is an operand of.
func (f *sourceFile) printed(c *candidate) (string, string) {
	if _, ok := c.node.(ast.Stmt); ok {
		return formatStmt(string(f.src[c.start:c.end])), formatStmt(c.repl)
	}
	show := c.node
	switch c.node.(type) {
	case *ast.BasicLit, *ast.Ident:
		if len(c.chain) >= 2 {
			switch parent := c.chain[len(c.chain)-2].(type) {
			case *ast.BinaryExpr, *ast.UnaryExpr, *ast.CallExpr, *ast.IndexExpr, *ast.SliceExpr, *ast.ParenExpr, *ast.KeyValueExpr:
				show = parent
			}
		}
	}
	a, b := f.offset(show.Pos()), f.offset(show.End())
	mutated := string(f.src[a:c.start]) + c.repl + string(f.src[c.end:b])
	return formatExpr(string(f.src[a:b])), formatExpr(mutated)
}

func formatExpr(text string) string {
	e, err := parser.ParseExpr(text)
	if err != nil {
		return text
	}
	var buf bytes.Buffer
	if printer.Fprint(&buf, token.NewFileSet(), e) != nil {
		return text
	}
	return buf.String()
}

func formatStmt(text string) string {
	if text == "" {
		return ""
	}
	out, err := format.Source([]byte(text))
	if err != nil {
		return text
	}
	return strings.TrimSpace(string(out))
}

// placeMarker finds the first for loop of the function named by --loop in
// package main: mutantLoop() goes first in its body.
func (p *program) placeMarker() error {
	for _, f := range p.files {
		if f.pkg != "main" {
			continue
		}
		for _, d := range f.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Name.Name != p.loop || fn.Body == nil {
				continue
			}
			var body *ast.BlockStmt
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if body != nil {
					return false
				}
				switch n := n.(type) {
				case *ast.ForStmt:
					body = n.Body
				case *ast.RangeStmt:
					body = n.Body
				}
				return body == nil
			})
			if body == nil {
				return fmt.Errorf("%s: %s has no for loop for the trace's L marker", f.rel, p.loop)
			}
			f.marker = f.offset(body.Lbrace) + 1
			return nil
		}
	}
	return fmt.Errorf("no function %s in package main for the trace's L marker", p.loop)
}

// keyAndHost numbers each mutant's occurrence in source order, makes its
// key and finds where its switch goes.
func (p *program) keyAndHost() {
	for _, f := range p.files {
		sort.SliceStable(f.cands, func(i, j int) bool { return f.cands[i].start < f.cands[j].start })
		p.cands = append(p.cands, f.cands...)
	}
	seen := map[string]int{}
	for i, c := range p.cands {
		c.seq = i
		base := fmt.Sprintf("%s | %s | %s %s", c.f.rel, c.function, c.operator, c.change)
		c.occurrence = seen[base]
		seen[base]++
		c.key = fmt.Sprintf("%s | %d", base, c.occurrence)
		c.kind, c.host = c.f.findHost(c)
		if c.kind == hostNone {
			c.drop = "no place for a switch: " + c.f.whyNoHost(c)
			continue
		}
		c.hostStart, c.hostEnd = c.f.offset(c.host.Pos()), c.f.offset(c.host.End())
		if c.kind != hostReassign {
			c.armStart, c.armEnd = c.hostStart, c.hostEnd
		}
	}
}

// findHost walks up from the mutated node to the statement holding it, for
// the innermost place where a switch keeps the program's types and its
// evaluation. A lazy switch, which evaluates the original or the mutant and
// costs a compare, is preferred: a boolean expression (either arm, once); a
// statement of a block (if/else); after x := e, a reassignment of x (e has
// no side effect, so evaluating it before the mutant's arm changes
// nothing). Failing those, an eager pick of a pure typed expression (both
// arms evaluated, neither can panic: go1.19 does not inline the generic
// pick); failing that, an integer literal switches in place by a shift,
// which takes its type from its context as the literal did.
func (f *sourceFile) findHost(c *candidate) (hostKind, ast.Node) {
	if _, ok := c.node.(ast.Stmt); ok {
		if inList(c.chain[len(c.chain)-2], c.node) {
			return hostStmt, c.node
		}
		return hostNone, nil
	}
	var eager ast.Node
climb:
	for j := len(c.chain) - 1; j >= 1; j-- {
		h, parent := c.chain[j], c.chain[j-1]
		switch h := h.(type) {
		case *ast.FuncLit:
			break climb
		case *ast.AssignStmt:
			if h.Tok != token.DEFINE {
				if inList(parent, h) {
					return hostStmt, h
				}
				break climb
			}
			if inList(parent, h) && len(h.Lhs) == len(h.Rhs) {
				element := c.chain[j+1].(ast.Expr)
				if f.sideEffectFree(element) && !mentions(element, h.Lhs) {
					for i, r := range h.Rhs {
						if r == element {
							c.assignTo = f.text(h.Lhs[i].Pos(), h.Lhs[i].End())
						}
					}
					c.armStart, c.armEnd = f.offset(element.Pos()), f.offset(element.End())
					return hostReassign, h
				}
			}
			break climb
		case ast.Stmt:
			if simpleStatement(h) && inList(parent, h) {
				return hostStmt, h
			}
			break climb
		case ast.Expr:
			if f.boolPosition(c.chain, j) {
				return hostBool, h
			}
			if eager == nil && f.pure(h) && f.eagerSafe(c, c.chain[j:]) && (f.typed(h) || definedBy(h, parent)) {
				eager = h
			}
		default:
			break climb
		}
	}
	if eager != nil {
		return hostEager, eager
	}
	if lit, ok := c.node.(*ast.BasicLit); ok && lit.Kind == token.INT && c.operator == "constant" {
		return hostShift, c.node
	}
	return hostNone, nil
}

// mentions: e uses one of the names being declared, which after the
// declaration would mean the new variable, not the one e meant.
func mentions(e ast.Expr, names []ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			for _, name := range names {
				if lhs, ok := name.(*ast.Ident); ok && lhs.Name == id.Name {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// whyNoHost says, for the drop list, what stopped findHost.
func (f *sourceFile) whyNoHost(c *candidate) string {
	for j := len(c.chain) - 1; j >= 1; j-- {
		switch h := c.chain[j].(type) {
		case *ast.FuncLit:
			return "inside a function literal's expression"
		case *ast.AssignStmt:
			if !inList(c.chain[j-1], h) {
				return "an untyped or impure expression in an if, for or switch header"
			}
			return "an untyped or impure expression in a := whose value may have effects or is one of several"
		case ast.Stmt:
			return fmt.Sprintf("an untyped or impure expression in a %T that is no block's statement", h)
		case *ast.ValueSpec:
			return "an untyped or impure expression in a var declaration"
		}
	}
	return "no enclosing statement"
}

func simpleStatement(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.IncDecStmt, *ast.ReturnStmt, *ast.SendStmt, *ast.DeferStmt, *ast.GoStmt:
		return true
	case *ast.AssignStmt:
		return s.Tok != token.DEFINE
	}
	return false
}

// definedBy: e initialises a variable that takes e's default type (x := e,
// var x = e), so an untyped e switched eagerly keeps its type.
func definedBy(e ast.Node, parent ast.Node) bool {
	switch p := parent.(type) {
	case *ast.AssignStmt:
		if p.Tok == token.DEFINE && len(p.Lhs) == len(p.Rhs) {
			for _, r := range p.Rhs {
				if r == e {
					return true
				}
			}
		}
	case *ast.ValueSpec:
		if p.Type == nil {
			for _, v := range p.Values {
				if v == e {
					return true
				}
			}
		}
	}
	return false
}

var comparisons = map[token.Token]bool{token.EQL: true, token.NEQ: true, token.LSS: true, token.LEQ: true,
	token.GTR: true, token.GEQ: true, token.LAND: true, token.LOR: true}

// boolPosition: chain[j] is a boolean expression, or sits where only a
// boolean can (a condition, an operand of && || !, a tagless case).
func (f *sourceFile) boolPosition(chain []ast.Node, j int) bool {
	e := chain[j].(ast.Expr)
	if boolExpr(e) {
		return true
	}
	switch name := f.mathCall(e, 1); name {
	case "IsNaN", "Signbit":
		return true
	}
	if f.mathCall(e, 2) == "IsInf" {
		return true
	}
	switch p := chain[j-1].(type) {
	case *ast.IfStmt:
		return p.Cond == e
	case *ast.ForStmt:
		return p.Cond == e
	case *ast.BinaryExpr:
		return p.Op == token.LAND || p.Op == token.LOR
	case *ast.UnaryExpr:
		return p.Op == token.NOT
	case *ast.CaseClause:
		if j >= 3 {
			if sw, ok := chain[j-3].(*ast.SwitchStmt); ok && sw.Tag == nil {
				for _, x := range p.List {
					if x == e {
						return true
					}
				}
			}
		}
	}
	return false
}

func boolExpr(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BinaryExpr:
		return comparisons[e.Op]
	case *ast.UnaryExpr:
		return e.Op == token.NOT
	case *ast.Ident:
		return e.Name == "true" || e.Name == "false"
	case *ast.ParenExpr:
		return boolExpr(e.X)
	}
	return false
}

var builtinTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "byte": true, "rune": true, "string": true, "bool": true,
	"complex64": true, "complex128": true}

// typed: e surely has a type of its own, so that a switch between e and its
// mutant keeps it (an untyped constant would take int or float64 instead).
// Without type-checking this errs towards no: a name declared const
// anywhere in the package, or any package's exported name, counts as one.
func (f *sourceFile) typed(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		switch e.Name {
		case "true", "false", "nil", "iota":
			return false
		}
		return !f.consts[e.Name]
	case *ast.BasicLit:
		return false
	case *ast.ParenExpr:
		return f.typed(e.X)
	case *ast.UnaryExpr:
		return e.Op == token.AND || f.typed(e.X)
	case *ast.BinaryExpr:
		if comparisons[e.Op] {
			return false
		}
		if e.Op == token.SHL || e.Op == token.SHR {
			return f.typed(e.X)
		}
		return f.typed(e.X) || f.typed(e.Y)
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && f.imports[pkg.Name] != "" {
			return false
		}
		return true
	case *ast.CallExpr, *ast.IndexExpr, *ast.SliceExpr, *ast.StarExpr, *ast.TypeAssertExpr, *ast.CompositeLit:
		return true
	}
	return false
}

// sideEffectFree: evaluating e before the mutant's arm changes nothing the
// program can see: pure, or an allocation (make, new, a composite literal),
// or a type assertion; e may panic, since it is the original.
func (f *sourceFile) sideEffectFree(e ast.Expr) bool {
	return f.check(e, true)
}

// pure: evaluating e once more changes nothing: no call but a conversion,
// len, cap or one of package math's functions.
func (f *sourceFile) pure(e ast.Expr) bool {
	return f.check(e, false)
}

func (f *sourceFile) check(e ast.Expr, allocate bool) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident, *ast.BasicLit, *ast.ParenExpr, *ast.SelectorExpr, *ast.StarExpr, *ast.BinaryExpr,
			*ast.IndexExpr, *ast.SliceExpr:
		case *ast.CompositeLit, *ast.KeyValueExpr, *ast.TypeAssertExpr:
			ok = allocate
		case *ast.ArrayType, *ast.MapType:
			return false // a composite literal's type
		case *ast.UnaryExpr:
			ok = n.Op != token.ARROW
		case *ast.CallExpr:
			ok = false
			switch fun := n.Fun.(type) {
			case *ast.Ident:
				ok = (builtinTypes[fun.Name] || fun.Name == "len" || fun.Name == "cap") && len(n.Args) == 1 ||
					allocate && (fun.Name == "make" || fun.Name == "new")
			case *ast.ArrayType:
				ok = len(n.Args) == 1
			case *ast.SelectorExpr:
				if pkg, isIdent := fun.X.(*ast.Ident); isIdent && f.imports[pkg.Name] == "math" {
					ok = true
				}
			}
			if ok {
				for _, a := range n.Args {
					if _, isType := a.(*ast.ArrayType); !isType {
						ok = ok && f.check(a, allocate)
					}
				}
				return false
			}
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// eagerSafe: with both arms evaluated, the mutant's arm cannot panic where
// the original does not. path runs from the host down to the mutated node:
// it must not pass through an index, or a divisor or shift count (a
// literal there may move, but a divisor not to zero); and a * made a / is
// written mutantQuo, which divides only when its mutant is active.
func (f *sourceFile) eagerSafe(c *candidate, path []ast.Node) bool {
	for k := 0; k+1 < len(path); k++ {
		child := path[k+1]
		switch p := path[k].(type) {
		case *ast.IndexExpr:
			if child == p.Index {
				return false
			}
		case *ast.SliceExpr:
			if child == p.Low || child == p.High || child == p.Max {
				return false
			}
		case *ast.BinaryExpr:
			if child != p.Y {
				continue
			}
			switch p.Op {
			case token.QUO, token.REM, token.SHL, token.SHR:
				lit, direct := unparen(p.Y).(*ast.BasicLit)
				if !direct || lit != c.node || strings.Trim(c.repl, "()-0._") == "" {
					return false
				}
			}
		}
	}
	return true
}

// armText is the host's text with the one change of c.
func (c *candidate) armText() string {
	f := c.f
	if c.kind == hostEager && c.operator == "arithmetic" && strings.HasSuffix(c.change, "-> /") {
		b := c.node.(*ast.BinaryExpr)
		if lit, ok := unparen(b.Y).(*ast.BasicLit); !ok || strings.Trim(lit.Value, "0._") == "" {
			quo := fmt.Sprintf("mutantQuo(%d, %s, %s)", c.id, f.text(b.X.Pos(), b.X.End()), f.text(b.Y.Pos(), b.Y.End()))
			return string(f.src[c.armStart:c.start]) + quo + string(f.src[c.end:c.armEnd])
		}
	}
	text := string(f.src[c.armStart:c.start]) + c.repl + string(f.src[c.end:c.armEnd])
	if c.kind == hostReassign {
		return c.assignTo + " = " + text
	}
	return text
}
