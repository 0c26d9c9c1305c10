package driver

import (
	"bytes"
	"encoding/gob"
	"go/types"
	"reflect"
	"slices"
	"sort"

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
		n.facts = nil
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
	fs := n.facts // encoded for the cache
	if fs == nil {
		fs = d.encodeFacts(n)
	}
	n.facts = nil
	objectFacts, packageFacts, ok := fs.decode(light)

	d.mu.Lock()
	defer d.mu.Unlock()
	for _, k := range n.objectFacts {
		delete(d.objectFacts, k)
	}
	for _, k := range n.packageFacts {
		delete(d.packageFacts, k)
	}
	if ok {
		for k, f := range objectFacts {
			d.objectFacts[k] = f
		}
		for k, f := range packageFacts {
			d.packageFacts[k] = f
		}
	}
	n.objectFacts, n.packageFacts = nil, nil
	pkg.Types = light
}

// A factSet is a package's facts as go vet passes them between processes:
// each object fact's object by its object path, and the facts' values in
// one gob stream (object facts in the order of objects, then package
// facts), so that the type information of each fact type is written and
// compiled once per package, not once per fact.
type factSet struct {
	objects  []cachedObjectFact // Path and Type
	packages []cachedPackageFact
	types    []reflect.Type // of objects then packages, in stream order
	stream   []byte
}

// encodeFacts encodes the facts the node's actions exported. A fact on
// an object without an object path, or that gob cannot encode, is left
// out.
func (d *driver) encodeFacts(n *node) *factSet {
	type objFact struct {
		path objectpath.Path
		k    objectFactKey
	}
	var enc objectpath.Encoder
	var objs []objFact
	for _, k := range n.objectFacts {
		path, err := enc.For(k.obj)
		if err != nil {
			continue
		}
		objs = append(objs, objFact{path, k})
	}
	sort.Slice(objs, func(i, j int) bool {
		a, b := objs[i], objs[j]
		return a.path < b.path || a.path == b.path && factTypeName(a.k.typ) < factTypeName(b.k.typ)
	})
	pkgs := slices.Clone(n.packageFacts)
	sort.Slice(pkgs, func(i, j int) bool { return factTypeName(pkgs[i].typ) < factTypeName(pkgs[j].typ) })

	fs := &factSet{}
	var buf bytes.Buffer
	genc := gob.NewEncoder(&buf)
	d.mu.RLock()
	defer d.mu.RUnlock()
	for _, o := range objs {
		if err := genc.Encode(d.objectFacts[o.k]); err != nil {
			continue
		}
		fs.objects = append(fs.objects, cachedObjectFact{Path: o.path, Type: factTypeName(o.k.typ)})
		fs.types = append(fs.types, o.k.typ)
	}
	for _, k := range pkgs {
		if err := genc.Encode(d.packageFacts[k]); err != nil {
			continue
		}
		fs.packages = append(fs.packages, cachedPackageFact{Type: factTypeName(k.typ)})
		fs.types = append(fs.types, k.typ)
	}
	fs.stream = buf.Bytes()
	return fs
}

// decode decodes the facts against the package's light types: object
// facts whose object is not in them are dropped. It reports false when
// the stream does not decode.
func (fs *factSet) decode(light *types.Package) (map[objectFactKey]analysis.Fact, map[packageFactKey]analysis.Fact, bool) {
	objectFacts := map[objectFactKey]analysis.Fact{}
	packageFacts := map[packageFactKey]analysis.Fact{}
	if len(fs.types) != len(fs.objects)+len(fs.packages) {
		return nil, nil, false
	}
	dec := gob.NewDecoder(bytes.NewReader(fs.stream))
	for i, t := range fs.types {
		if t == nil || t.Kind() != reflect.Pointer {
			return nil, nil, false
		}
		fact, ok := reflect.New(t.Elem()).Interface().(analysis.Fact)
		if !ok {
			return nil, nil, false
		}
		if err := dec.Decode(fact); err != nil {
			return nil, nil, false
		}
		if i < len(fs.objects) {
			obj, err := objectpath.Object(light, fs.objects[i].Path)
			if err != nil {
				continue // not in the export data
			}
			objectFacts[objectFactKey{obj, t}] = fact
		} else {
			packageFacts[packageFactKey{light, t}] = fact
		}
	}
	return objectFacts, packageFacts, true
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
