package ctxverdict

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// setUp reports whether an SQL call is schema set-up, by the engine's
// reading of its statement (Result.SetUp).
func (j *judge) setUp(call *ast.CallExpr) bool {
	return j.sum.SetUp(call.Lparen)
}

// localDial reports whether a dial's network is a constant naming a
// Unix socket: it connects to a local process at once, and has nothing
// to wait for that a context would bound.
func (j *judge) localDial(call *ast.CallExpr) bool {
	callee := analysisutil.CalleeFunc(j.pass.TypesInfo, call)
	if callee == nil || len(call.Args) == 0 {
		return false
	}
	switch callee.FullName() {
	case "net.Dial", "net.DialTimeout", "crypto/tls.Dial":
	default:
		return false
	}
	tv, ok := j.pass.TypesInfo.Types[call.Args[0]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return false
	}
	return strings.HasPrefix(constant.StringVal(tv.Value), "unix")
}

// takesDuration reports whether a call is given a time.Duration: the
// bound its author chose (net.DialTimeout's timeout).
func (j *judge) takesDuration(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if t := j.pass.TypesInfo.TypeOf(a); t != nil && analysisutil.IsDuration(t) {
			return true
		}
	}
	return false
}

// deadlineCopied reports whether the I/O object a call works on gets the
// context's deadline by hand in the same function: the dialer a dial is
// made with (tls.DialWithDialer's first argument), or the receiver of the
// call (a *net.Dialer, a DNS client, a connection), or the connection a
// TLS connection wraps (tls.Client(conn, cfg)), is given a Deadline or a
// Timeout field, or SetDeadline, in a function that reads ctx.Deadline():
//
//	if t, ok := ctx.Deadline(); ok { d.Deadline = t }
//	return tls.DialWithDialer(d, network, addr, cfg)
//
//	dl, _ := ctx.Deadline()
//	client.Timeout = time.Until(dl)
//	client.Exchange(msg, server)
//
// The caller's deadline travels; only cancellation is lost (crypto/tls's
// dialer had no context-taking form before Go 1.15, and a DNS client's
// Timeout is the deadline's remainder).
func (j *judge) deadlineCopied(cur inspector.Cursor, call *ast.CallExpr) bool {
	callee := analysisutil.CalleeFunc(j.pass.TypesInfo, call)
	owner, ok := enclosingFunc(cur)
	if callee == nil || !ok {
		return false
	}
	var target ast.Expr
	if callee.FullName() == "crypto/tls.DialWithDialer" {
		if len(call.Args) > 0 {
			target = call.Args[0]
		}
	} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && callee.Type().(*types.Signature).Recv() != nil {
		target = sel.X
	}
	id, ok := ast.Unparen(target).(*ast.Ident)
	if !ok {
		return false
	}
	obj := j.pass.TypesInfo.ObjectOf(id)
	if obj == nil {
		return false
	}
	// One walk: the variables given a deadline, the connection the
	// object wraps, and whether the context's deadline is read at all.
	given := map[types.Object]bool{}
	var wrapped types.Object
	readsDeadline := false
	ast.Inspect(owner.Node(), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Deadline" || sel.Sel.Name == "Timeout") {
					given[j.identObj(sel.X)] = true
				}
				if len(n.Lhs) == len(n.Rhs) && j.identObj(l) == obj {
					if w := j.wrappedConn(n.Rhs[i]); w != nil {
						wrapped = w
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if j.pass.TypesInfo.ObjectOf(name) == obj && i < len(n.Values) {
					if w := j.wrappedConn(n.Values[i]); w != nil {
						wrapped = w
					}
				}
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				switch {
				case sel.Sel.Name == "SetDeadline":
					given[j.identObj(sel.X)] = true
				case sel.Sel.Name == "Deadline" && analysisutil.IsContext(j.pass.TypesInfo.TypeOf(sel.X)):
					readsDeadline = true
				}
			}
		}
		return true
	})
	return readsDeadline && (given[obj] || wrapped != nil && given[wrapped])
}

// wrappedConn returns the connection a TLS connection is made around
// (tls.Client(conn, cfg), tls.Server(conn, cfg)), when it is a variable.
func (j *judge) wrappedConn(e ast.Expr) types.Object {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	fn := analysisutil.CalleeFunc(j.pass.TypesInfo, call)
	if fn == nil || fn.FullName() != "crypto/tls.Client" && fn.FullName() != "crypto/tls.Server" {
		return nil
	}
	if id, ok := ast.Unparen(call.Args[0]).(*ast.Ident); ok {
		return j.pass.TypesInfo.ObjectOf(id)
	}
	return nil
}

// identObj returns the object a plain identifier names, or nil.
func (j *judge) identObj(e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return j.pass.TypesInfo.ObjectOf(id)
	}
	return nil
}

// handsLocalDB reports whether the call is handed the package's
// in-process database (a *sql.DB, Tx, Conn or Stmt where the database is
// SQLite): a helper given it (sqlutil.TxStmt(txn, stmt)) does local work.
func (j *judge) handsLocalDB(call *ast.CallExpr) bool {
	if !j.sum.LocalDatabase() {
		return false
	}
	for _, a := range call.Args {
		if analysisutil.IsSQLHandle(j.pass.TypesInfo.TypeOf(a)) {
			return true
		}
	}
	return false
}
