package summary

import (
	"go/types"
	"sort"
)

// MapImpl says that a method of the package implements a method of an
// interface of the module mapped: an interface call's edge may reach it.
// This is how the map follows work a service reaches through interfaces
// that configuration fills at run time (notifiers, storage drivers,
// plugins), which no value the engine follows names.
type MapImpl struct {
	Iface  string // the interface method's map key: (pkg.Notifier).Notify
	Method string // the implementing method's map key
}

// MapImpls returns the package's implementations of the module's
// interfaces (map mode only), sorted.
func (r *Result) MapImpls() []MapImpl { r.ready(); return r.mapImpls }

// mapImpls records, for each concrete type the package declares, the
// methods by which it implements an interface of the package or of the
// module's packages it imports (an implementation registers itself with
// the package that declares the interface, so it imports it).
func (e *engine) mapImpls() {
	var ifaces []*types.Interface
	addIfaces := func(pkg *types.Package) {
		for _, name := range pkg.Scope().Names() {
			tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			if it, ok := named.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
				ifaces = append(ifaces, it)
			}
		}
	}
	addIfaces(e.pass.Pkg)
	for _, imp := range e.pass.Pkg.Imports() {
		if e.inModule(imp) {
			addIfaces(imp)
		}
	}
	if len(ifaces) == 0 {
		return
	}
	scope := e.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue
		}
		for _, it := range ifaces {
			var recv types.Type
			switch {
			case types.Implements(named, it):
				recv = named
			case types.Implements(types.NewPointer(named), it):
				recv = types.NewPointer(named)
			default:
				continue
			}
			for i := range it.NumMethods() {
				m := it.Method(i)
				obj, _, _ := types.LookupFieldOrMethod(recv, false, m.Pkg(), m.Name())
				if f, ok := obj.(*types.Func); ok {
					e.res.mapImpls = append(e.res.mapImpls, MapImpl{Iface: m.FullName(), Method: f.Origin().FullName()})
				}
			}
		}
	}
	sort.Slice(e.res.mapImpls, func(i, j int) bool {
		a, b := e.res.mapImpls[i], e.res.mapImpls[j]
		if a.Iface != b.Iface {
			return a.Iface < b.Iface
		}
		return a.Method < b.Method
	})
}
