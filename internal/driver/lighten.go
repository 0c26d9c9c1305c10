package driver

import (
	"bytes"
	"encoding/gob"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// lighten replaces a package's types, once its analysis is done, by a
// check of its declarations alone, and moves its facts there.
//
// The full check keeps, through the package's scope, the scopes and
// objects of every function body: three quarters of what the types of
// the standard library take, and nothing importers need. The facts its
// analyzers exported name objects of the full check and may point into
// its types and SSA (unexported fields the analysis keeps for itself), so
// they move as go vet moves them between processes: each object by its
// object path, each fact through gob, which keeps only what the fact
// type exports. Importers then see what they would under go vet.
//
// A fact on an object that has no object path (go vet drops it too) or
// that gob cannot encode is dropped.
func (d *driver) lighten(n *node) {
	pkg := n.pkg
	heavy := pkg.Types
	if heavy == nil || len(pkg.Syntax) == 0 {
		return
	}
	light := types.NewPackage(pkg.PkgPath, pkg.Name)
	tc := config(pkg)
	tc.IgnoreFuncBodies = true
	tc.Error = func(error) {} // the full check has reported them
	types.NewChecker(tc, d.fset, light, nil).Files(pkg.Syntax)

	var enc objectpath.Encoder
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, k := range n.objectFacts {
		fact := d.objectFacts[k]
		delete(d.objectFacts, k)
		path, err := enc.For(k.obj)
		if err != nil {
			continue
		}
		obj, err := objectpath.Object(light, path)
		if err != nil {
			continue
		}
		if copy := copyFact(fact); copy != nil {
			d.objectFacts[objectFactKey{obj, k.typ}] = copy
		}
	}
	for _, k := range n.packageFacts {
		fact := d.packageFacts[k]
		delete(d.packageFacts, k)
		if copy := copyFact(fact); copy != nil {
			d.packageFacts[packageFactKey{light, k.typ}] = copy
		}
	}
	n.objectFacts, n.packageFacts = nil, nil
	pkg.Types = light
}

// copyFact returns a copy of fact made through gob, as go vet passes facts
// between processes, or nil when gob cannot copy it.
func copyFact(fact analysis.Fact) analysis.Fact {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(fact); err != nil {
		return nil
	}
	copy := reflect.New(reflect.TypeOf(fact).Elem()).Interface().(analysis.Fact)
	if err := gob.NewDecoder(&buf).Decode(copy); err != nil {
		return nil
	}
	return copy
}
