package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/lifetimevet/lifetimevet/passes/model"
)

// modelsMain is `lifetimevet models [-model FILE]...`: it prints the merged
// model table (the built-in library models and the model files given), as
// the model pass sees it before any package's //lifetime: directives.
func modelsMain(args []string) int {
	fs := flag.NewFlagSet(progName()+" models", flag.ContinueOnError)
	var files model.Files
	fs.Var(&files, "model", "add a model `file` of C functions (repeatable)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `usage: %s models [-model FILE]...

Prints the model lifetimevet uses: the built-in library models merged with
the model files given (with -model, and by the configuration file of the
current directory), one entry a line (library, C function, role and
arguments, kind, parent kind, where it was read, documentation).

Flags:
`, progName())
		fs.PrintDefaults()
	}
	usage := fs.Usage
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		fs.SetOutput(os.Stdout)
		if err == flag.ErrHelp {
			usage()
			return 0
		}
		fmt.Fprintf(os.Stderr, "%s models: %v\nrun '%s help' for usage\n", progName(), err, progName())
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "%s models: unexpected arguments %q\n", progName(), fs.Args())
		return 2
	}
	// and those the configuration of the current directory names
	if cwd, err := os.Getwd(); err == nil {
		c, err := newConfigs().forDir(cwd)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
			return 1
		}
		for _, f := range c.models {
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	m, err := model.Load(files)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
	}
	w := bufio.NewWriter(os.Stdout)
	if err := m.WriteTable(w); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
	}
	return 0
}
