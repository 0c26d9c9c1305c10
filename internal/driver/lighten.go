package driver

import (
	"bytes"
	"encoding/gob"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// lighten replaces a package's types, once its analysis is done, by what
// its export data says, as go vet's importers see them, and moves its
// facts there.
//
// The full check keeps, through the package's scope, the scopes and
// objects of every function body and signature: most of what the types of
// the standard library take, and nothing importers need. The facts its
// analyzers exported name objects of the full check and may point into
// its types and SSA (unexported fields the analysis keeps for itself), so
// they move as go vet moves them between processes: each object by its
// object path, each fact through gob, which keeps only what the fact
// type exports. Importers then see what they would under go vet.
//
// A fact on an object that has no object path (go vet drops it too) or
// that gob cannot encode is dropped.
//
// A package no other package of the run imports keeps no types and no
// facts: nothing needs them.
func (d *driver) lighten(n *node) {
	pkg := n.pkg
	if len(n.importers) == 0 {
		d.mu.Lock()
		for _, k := range n.objectFacts {
			delete(d.objectFacts, k)
		}
		for _, k := range n.packageFacts {
			delete(d.packageFacts, k)
		}
		d.mu.Unlock()
		n.objectFacts, n.packageFacts = nil, nil
		pkg.Types = nil
		return
	}
	if pkg.Types == nil || pkg.IllTyped || len(pkg.Syntax) == 0 {
		return // (its importers are not analysed: keep the full check)
	}
	light, err := d.exportData(n)
	if err != nil {
		return // the exporter's limit: keep the full check
	}

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

// exportData returns the package's types written as export data and read
// back against its imports' types: its declarations, without scopes.
func (d *driver) exportData(n *node) (*types.Package, error) {
	pkg := n.pkg
	data := n.export // written for the cache
	if data == nil {
		var err error
		if data, err = d.writeExportData(pkg); err != nil {
			return nil, err
		}
	}
	n.export = nil
	return d.readExportData(pkg, data)
}
