// Package bench measures lifetimevet: its cost against go vet and
// staticcheck on a fixed corpus, the time of each analyzer and pass, and
// how the analysis of one function grows with the function's size.
//
// The measurements run by hand, through the lvbench command
// (bench/cmd/lvbench), or through go test -bench (BenchmarkCorpus,
// BenchmarkStress); plain go test runs only quick checks of the code and
// never a measurement. bench/README.md says how to run each and what each
// column means.
//
// Cold and warm: a cold run starts from a fresh, empty GOCACHE (and
// STATICCHECK_CACHE), so every tool compiles the export data and runs cgo
// for the packages it needs and nothing of the analysis (results, facts)
// is cached; a warm run is the same command again at once, with that cache
// and unchanged code. The module cache and the operating system's file
// cache are warm for both.
package bench
