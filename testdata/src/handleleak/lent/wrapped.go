package lent

import "handleleak/lent/plugin"

// Through wrappers of another package: the symbol the wrapper returns is
// lent by the library it was given.
func symbolOf(code map[int]string, k int, name string) plugin.Symbol {
	return plugin.Load(code[k]).Symbol(name)
}

var kernel = symbolOf(nil, 0, "main")

// Stored in a field of a struct the function returns.
type Kernel struct{ sym plugin.Symbol }

func newKernel(path string) *Kernel {
	l := plugin.Load(path)
	return &Kernel{sym: plugin.Lookup(l, "main")}
}

// Looked up and dropped: the library leaks.
func probeSymbol(path string) bool {
	plugin.Load(path).Symbol("main") // want `the handle Load returns is not released on every path`
	return true
}

func probeSymbolOK(path string) bool {
	l := plugin.Load(path)
	defer l.Unload()
	l.Symbol("main")
	return true
}
