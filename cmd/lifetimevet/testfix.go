//go:build lifetimevet_testfix

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/lifetimevet/lifetimevet/internal/fixes/fixtest"
)

// Built with -tags lifetimevet_testfix (by the tests only), the command also
// runs a test analyzer that suggests fixes in cgo files, so that -fix and
// the language server's code actions can be tested before a real analyzer
// offers fixes. Two environment variables simulate what can happen to the
// files while a -fix run goes on:
//
//	LIFETIMEVET_TESTFIX_EDIT=FILE    prepends a line to FILE after the analysis, before the fixes are written
//	LIFETIMEVET_TESTFIX_NOWRITE=BASE makes writing any file named BASE fail
func init() {
	extraAnalyzers = append(extraAnalyzers, fixtest.Analyzer)
	if name := os.Getenv("LIFETIMEVET_TESTFIX_EDIT"); name != "" {
		beforeApply = func() {
			data, _ := os.ReadFile(name)
			os.WriteFile(name, append([]byte("// edited during the run\n"), data...), 0o666)
		}
	}
	if base := os.Getenv("LIFETIMEVET_TESTFIX_NOWRITE"); base != "" {
		writeFix = func(name string, data []byte) error {
			if strings.EqualFold(filepath.Base(name), base) {
				return &os.PathError{Op: "open", Path: name, Err: errors.New("read-only file system")}
			}
			return os.WriteFile(name, data, 0o666)
		}
	}
}
