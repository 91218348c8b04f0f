package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"math/big"
	"strings"
)

// table is every mutation operator, one row each: its name (the core's name
// in mutation/operators.py where the slip is the same), why a port's author
// might make that slip, and the function that finds its sites. No operator
// mutates inside a const declaration, an array length or anything else that
// must be a compile-time constant, nor error messages, fmt formatting or
// strconv's bases and bit sizes: a switch cannot go there, or the change is
// a different call rather than a slip.
var table = []operator{
	{"relational", "a boundary moved: the inclusive age limit, the last attempt, the cap's strict >, the range of r", relational},
	{"equality", "== and != swapped: a zero test, a fixed point, an error check", equality},
	{"arithmetic", "+ - * / and += -= *= /= swapped: the jitter's arithmetic, the parity, the draw's scaling (an integer / made here divides only when its mutant is active)", arithmetic},
	{"logical", "&& and || swapped: a validation rule or a guard weakened or strengthened", logical},
	{"constant", "an integer or float literal moved by one, true and false swapped: a default, a factory's value, the draw's bits (not in const declarations or array lengths, which must stay constant)", constant},
	{"negation-removed", "a ! or a unary - dropped: a NaN guard written as !(x >= 0), the sign of a zero", negationRemoved},
	{"min-max", "math.Min and math.Max swapped (the port avoids both for -0.0; a port that uses them can slip)", minMax},
	{"bits-to-values", "math.Float64bits(a) == math.Float64bits(b) tidied into a == b, math.Signbit(x) into x < 0: both lose -0.0", bitsToValues},
	{"statement-deleted", "a statement dropped: an assignment, a call, a break or continue, an early return", statementDeleted},
	{"condition-negated", "the condition of an if or a for negated", conditionNegated},
	{"product-distributed", "a * (b + c) regrouped as a*b + a*c (through a float64() that forced a rounding): the same real number, rounded differently, as a refactor of the jitter makes it", productDistributed},
}

type operator struct {
	name   string
	reason string
	apply  func(f *sourceFile, n ast.Node, at *walkContext)
}

var (
	relationalSwap = map[token.Token]token.Token{token.LSS: token.LEQ, token.LEQ: token.LSS, token.GTR: token.GEQ, token.GEQ: token.GTR}
	equalitySwap   = map[token.Token]token.Token{token.EQL: token.NEQ, token.NEQ: token.EQL}
	arithmeticSwap = map[token.Token]token.Token{token.ADD: token.SUB, token.SUB: token.ADD, token.MUL: token.QUO, token.QUO: token.MUL,
		token.ADD_ASSIGN: token.SUB_ASSIGN, token.SUB_ASSIGN: token.ADD_ASSIGN, token.MUL_ASSIGN: token.QUO_ASSIGN, token.QUO_ASSIGN: token.MUL_ASSIGN}
	logicalSwap = map[token.Token]token.Token{token.LAND: token.LOR, token.LOR: token.LAND}
)

// swapOperator replaces the operator token of a binary expression.
func swapOperator(f *sourceFile, at *walkContext, n *ast.BinaryExpr, name string, swap map[token.Token]token.Token) {
	to, ok := swap[n.Op]
	if !ok {
		return
	}
	op := f.offset(n.OpPos)
	f.add(at, n, name, fmt.Sprintf("%s -> %s", n.Op, to), f.text(n.Pos(), n.OpPos)+to.String()+string(f.src[op+len(n.Op.String()):f.offset(n.End())]))
}

func relational(f *sourceFile, n ast.Node, at *walkContext) {
	if b, ok := n.(*ast.BinaryExpr); ok {
		swapOperator(f, at, b, "relational", relationalSwap)
	}
}

func equality(f *sourceFile, n ast.Node, at *walkContext) {
	if b, ok := n.(*ast.BinaryExpr); ok {
		swapOperator(f, at, b, "equality", equalitySwap)
	}
}

func arithmetic(f *sourceFile, n ast.Node, at *walkContext) {
	switch n := n.(type) {
	case *ast.BinaryExpr:
		// Concatenation is not arithmetic; what these checks miss the
		// compiler refuses, and the build loop drops.
		if n.Op == token.ADD && (stringy(n.X) || stringy(n.Y)) {
			return
		}
		swapOperator(f, at, n, "arithmetic", arithmeticSwap)
	case *ast.AssignStmt:
		to, ok := arithmeticSwap[n.Tok]
		if !ok || !at.inFunction || (n.Tok == token.ADD_ASSIGN && stringy(n.Rhs[0])) {
			return
		}
		op := f.offset(n.TokPos)
		f.add(at, n, "arithmetic", fmt.Sprintf("%s -> %s", n.Tok, to), f.text(n.Pos(), n.TokPos)+to.String()+string(f.src[op+len(n.Tok.String()):f.offset(n.End())]))
	}
}

// stringy: an operand that is plainly a string, so + on it is concatenation.
func stringy(e ast.Expr) bool {
	switch e := unparen(e).(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.BinaryExpr:
		return e.Op == token.ADD && (stringy(e.X) || stringy(e.Y))
	case *ast.CallExpr:
		switch fun := e.Fun.(type) {
		case *ast.Ident:
			return fun.Name == "string"
		case *ast.SelectorExpr:
			if pkg, ok := fun.X.(*ast.Ident); ok && (pkg.Name == "strings" || pkg.Name == "strconv") {
				return strings.HasPrefix(fun.Sel.Name, "Format") || strings.HasPrefix(fun.Sel.Name, "Quote") ||
					fun.Sel.Name == "Itoa" || pkg.Name == "strings"
			}
			return fun.Sel.Name == "Error" || fun.Sel.Name == "String"
		}
	}
	return false
}

func logical(f *sourceFile, n ast.Node, at *walkContext) {
	if b, ok := n.(*ast.BinaryExpr); ok {
		swapOperator(f, at, b, "logical", logicalSwap)
	}
}

func constant(f *sourceFile, n ast.Node, at *walkContext) {
	switch n := n.(type) {
	case *ast.BasicLit:
		for i, to := range literalVariants(n) {
			text := to
			if strings.HasPrefix(to, "-") {
				text = "(" + to + ")"
			}
			c := f.add(at, n, "constant", fmt.Sprintf("%s -> %s", n.Value, to), text)
			c.delta = 1 - 2*i // literalVariants gives n+1 first, then n-1
		}
	case *ast.Ident:
		if n.Name == "true" || n.Name == "false" {
			to := map[string]string{"true": "false", "false": "true"}[n.Name]
			f.add(at, n, "constant", fmt.Sprintf("%s -> %s", n.Name, to), to)
		}
	}
}

// literalVariants: an integer n -> n+1, and n-1 unless n is 0 (which may be
// unsigned); a float x -> x+1, x-1, written exactly in decimal. Hex integers
// stay hex. Strings, runes and imaginary literals are not mutated.
func literalVariants(lit *ast.BasicLit) []string {
	body := strings.ReplaceAll(lit.Value, "_", "")
	one := big.NewInt(1)
	switch lit.Kind {
	case token.INT:
		v, ok := new(big.Int).SetString(body, 0)
		if !ok {
			return nil
		}
		show := func(x *big.Int) string {
			if strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X") {
				digits := x.Text(16)
				if strings.ToUpper(body[2:]) == body[2:] {
					digits = strings.ToUpper(digits)
				}
				return body[:2] + digits
			}
			return x.String()
		}
		out := []string{show(new(big.Int).Add(v, one))}
		if v.Sign() > 0 {
			out = append(out, show(new(big.Int).Sub(v, one)))
		}
		return out
	case token.FLOAT:
		v, ok := new(big.Rat).SetString(body)
		if !ok {
			return nil
		}
		r1 := new(big.Rat).SetInt64(1)
		return []string{exactDecimal(new(big.Rat).Add(v, r1)), exactDecimal(new(big.Rat).Sub(v, r1))}
	}
	return nil
}

// exactDecimal writes r as a float literal with as many digits as it needs
// (every literal's value has a terminating decimal expansion).
func exactDecimal(r *big.Rat) string {
	if r.IsInt() {
		return r.FloatString(0) + ".0"
	}
	ten := big.NewRat(10, 1)
	scaled := new(big.Rat).Set(r)
	for digits := 1; digits < 1200; digits++ {
		scaled.Mul(scaled, ten)
		if scaled.IsInt() {
			return r.FloatString(digits)
		}
	}
	return r.FloatString(40)
}

func negationRemoved(f *sourceFile, n ast.Node, at *walkContext) {
	if u, ok := n.(*ast.UnaryExpr); ok && (u.Op == token.NOT || u.Op == token.SUB) {
		f.add(at, n, "negation-removed", u.Op.String()+"x -> x", f.text(u.X.Pos(), u.X.End()))
	}
}

// mathCall is the name of a call to package math's function with nargs
// arguments, or "".
func (f *sourceFile) mathCall(n ast.Node, nargs int) string {
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) != nargs || call.Ellipsis.IsValid() {
		return ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if pkg, ok := sel.X.(*ast.Ident); ok && f.imports[pkg.Name] == "math" {
		return sel.Sel.Name
	}
	return ""
}

func minMax(f *sourceFile, n ast.Node, at *walkContext) {
	name := f.mathCall(n, 2)
	if name != "Min" && name != "Max" {
		return
	}
	to := map[string]string{"Min": "Max", "Max": "Min"}[name]
	sel := n.(*ast.CallExpr).Fun.(*ast.SelectorExpr)
	f.add(at, n, "min-max", fmt.Sprintf("math.%s -> math.%s", name, to),
		f.text(n.Pos(), sel.Sel.Pos())+to+f.text(sel.Sel.End(), n.End()))
}

func bitsToValues(f *sourceFile, n ast.Node, at *walkContext) {
	if f.mathCall(n, 1) == "Signbit" {
		arg := n.(*ast.CallExpr).Args[0]
		f.add(at, n, "bits-to-values", "math.Signbit(x) -> x < 0", "("+f.text(arg.Pos(), arg.End())+") < 0")
		return
	}
	b, ok := n.(*ast.BinaryExpr)
	if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
		return
	}
	x, y := f.mathCall(unparen(b.X), 1), f.mathCall(unparen(b.Y), 1)
	if x != y || (x != "Float64bits" && x != "Float32bits") {
		return
	}
	a, c := unparen(b.X).(*ast.CallExpr).Args[0], unparen(b.Y).(*ast.CallExpr).Args[0]
	f.add(at, n, "bits-to-values", fmt.Sprintf("math.%s(a) %s math.%s(b) -> a %s b", x, b.Op, x, b.Op),
		"("+f.text(a.Pos(), a.End())+") "+b.Op.String()+" ("+f.text(c.Pos(), c.End())+")")
}

// statementDeleted: a statement of a block. A := is not deleted (its
// variables would be left undeclared), nor a return or panic the function
// needs to end (Go refuses to compile a function that may run off its end).
func statementDeleted(f *sourceFile, n ast.Node, at *walkContext) {
	if !at.inFunction || !at.inStatementList(n) {
		return
	}
	switch s := n.(type) {
	case *ast.BranchStmt:
		if s.Tok != token.BREAK && s.Tok != token.CONTINUE {
			return
		}
	case *ast.ReturnStmt:
		if at.topLevel(n) || at.needed[n] {
			return
		}
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			return
		}
	case *ast.IncDecStmt:
	case *ast.ExprStmt:
		if _, call := s.X.(*ast.CallExpr); !call || at.needed[n] {
			return
		}
	default:
		return
	}
	f.add(at, n, "statement-deleted", "statement -> nothing", "")
}

func conditionNegated(f *sourceFile, n ast.Node, at *walkContext) {
	var cond ast.Expr
	switch s := n.(type) {
	case *ast.IfStmt:
		cond = s.Cond
	case *ast.ForStmt:
		cond = s.Cond
	}
	if cond == nil {
		return
	}
	f.add(at, cond, "condition-negated", "c -> !c", "!("+f.text(cond.Pos(), cond.End())+")")
}

func productDistributed(f *sourceFile, n ast.Node, at *walkContext) {
	b, ok := n.(*ast.BinaryExpr)
	if !ok || b.Op != token.MUL {
		return
	}
	show := func(e ast.Expr) string {
		text := f.text(e.Pos(), e.End())
		if inner, ok := unparen(e).(*ast.BinaryExpr); ok && inner.Op.Precedence() < token.MUL.Precedence() {
			return "(" + text + ")"
		}
		return f.text(unparen(e).Pos(), unparen(e).End())
	}
	if sum := f.sumInside(b.Y); sum != nil {
		a := show(b.X)
		f.add(at, n, "product-distributed", fmt.Sprintf("a * (b %s c) -> a*b %s a*c", sum.Op, sum.Op),
			a+"*"+show(sum.X)+" "+sum.Op.String()+" "+a+"*"+show(sum.Y))
	} else if sum := f.sumInside(b.X); sum != nil {
		a := show(b.Y)
		f.add(at, n, "product-distributed", fmt.Sprintf("(b %s c) * a -> b*a %s c*a", sum.Op, sum.Op),
			show(sum.X)+"*"+a+" "+sum.Op.String()+" "+show(sum.Y)+"*"+a)
	}
}

// sumInside: e is (b + c) or (b - c), through parentheses and through one
// float64(...) or float32(...) conversion, the rounding a refactor drops.
func (f *sourceFile) sumInside(e ast.Expr) *ast.BinaryExpr {
	e = unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if id, ok := call.Fun.(*ast.Ident); ok && (id.Name == "float64" || id.Name == "float32") {
			e = unparen(call.Args[0])
		}
	}
	if sum, ok := e.(*ast.BinaryExpr); ok && (sum.Op == token.ADD || sum.Op == token.SUB) && !stringy(sum) {
		return sum
	}
	return nil
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}
