package cgocall_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
)

// report is a test analyzer that reports each call into C the pass finds,
// with its arguments as written and as access paths, and when it runs.
var report = &analysis.Analyzer{
	Name:     "cgocalltest",
	Doc:      "report the calls into C the cgocall pass finds",
	Requires: []*analysis.Analyzer{cgocall.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[cgocall.Analyzer].(*cgocall.Result)
		for _, fn := range res.Funcs {
			if res.IsWrapper(fn) {
				return nil, fmt.Errorf("wrapper %s listed as a user function", fn)
			}
			for _, c := range res.Calls(fn) {
				var args []string
				for i, r := range c.Args {
					text := cgocall.Text(pass.TypesInfo, c.ArgExpr(i))
					if !r.Valid() {
						// the result of a nested call into C: it has no
						// value in the user's frame
						text = "?" + text
					}
					args = append(args, text)
					_ = access.Ref(r)
				}
				mode := [...]string{"direct", "deferred", "spawned"}[c.Mode]
				pass.Reportf(c.Pos, "C.%s(%s) %s", c.Name, strings.Join(args, ", "), mode)
			}
		}
		return nil, nil
	},
}

func TestForms(t *testing.T) {
	testutil.Run(t, report, "cgocall")
}
