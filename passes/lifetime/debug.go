package lifetime

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// debugging reports whether LIFETIMEVET_DEBUG names what (a developer aid:
// LIFETIMEVET_DEBUG=summary,trace prints what the pass computed).
func debugging(what string) bool {
	return strings.Contains(os.Getenv("LIFETIMEVET_DEBUG"), what)
}

// noPrune keeps every entry of the path states (LIFETIMEVET_DEBUG=noprune):
// the findings must be the same as with pruning (live.go).
var noPrune = debugging("noprune")

// debugVisits prints each path state as the analysis enters a block
// (LIFETIMEVET_DEBUG=visits): what keeps a loop from converging.
var debugVisits = debugging("visits")

func (r *Result) dump(w io.Writer) {
	for fn, s := range r.Summaries {
		if s.empty() {
			continue
		}
		fmt.Fprintf(w, "summary %s:\n", fn)
		for _, rel := range s.Releases {
			fmt.Fprintf(w, "  release %s (%s) by %s guarded=%v repeats=%v clears=%v\n", rel.Path.Key(), rel.Text, rel.CFunc, rel.Guarded, rel.Repeats, rel.Clears)
		}
		for _, rel := range s.Drops {
			fmt.Fprintf(w, "  drop %s (%s) by %s\n", rel.Path.Key(), rel.Text, rel.CFunc)
		}
		for _, st := range s.Stores {
			fmt.Fprintf(w, "  store %s zero=%v\n", st.Path.Key(), st.Zero)
		}
		for _, c := range s.Clobbers {
			fmt.Fprintf(w, "  clobber %s\n", c.Key())
		}
		for _, d := range s.Disarms {
			fmt.Fprintf(w, "  disarm %s\n", d.Key())
		}
		for _, u := range s.Uses {
			fmt.Fprintf(w, "  use %s\n", u.Key())
		}
		for _, r := range s.Returns {
			fmt.Fprintf(w, "  returns %d = %s", r.Result, r.Path.Key())
			if r.Entry {
				fmt.Fprintf(w, " entry clears=%v", r.Clears)
			}
			fmt.Fprintln(w)
		}
		if s.Globals {
			fmt.Fprintf(w, "  globals\n")
		}
		for _, m := range s.Status {
			fmt.Fprintf(w, "  status %+v\n", m)
		}
		for _, p := range s.AcquiresInto {
			fmt.Fprintf(w, "  acquires into %s\n", p.Key())
		}
		if len(s.Acquires) > 0 {
			fmt.Fprintf(w, "  acquires %v\n", s.Acquires)
			if len(s.Counted) > 0 {
				fmt.Fprintf(w, "  counted %v\n", s.Counted)
			}
		}
		for _, m := range s.Arms {
			fmt.Fprintf(w, "  arms %s (finalizer %s at %s)\n", m.Path.Key(), m.Fin, m.Posn)
		}
		for _, l := range s.Lends {
			fmt.Fprintf(w, "  result %d lent by %s\n", l.Result, l.From.Key())
		}
	}
	for _, f := range r.Finalizers {
		fmt.Fprintf(w, "finalizer on %s by %s: %+v\n", f.Type.Name(), f.Name, f.Releases)
	}
}
