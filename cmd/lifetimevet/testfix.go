//go:build lifetimevet_testfix

package main

import "github.com/lifetimevet/lifetimevet/internal/fixes/fixtest"

// Built with -tags lifetimevet_testfix (by the tests only), the command also
// runs a test analyzer that suggests fixes in cgo files, so that -fix and
// the language server's code actions can be tested before a real analyzer
// offers fixes.
func init() { extraAnalyzers = append(extraAnalyzers, fixtest.Analyzer) }
