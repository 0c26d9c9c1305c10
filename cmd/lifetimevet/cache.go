package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"honnef.co/go/tools/lintcmd/cache"

	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
)

// The analysis cache of the standalone command and the language server
// (see internal/driver/cache.go): in $LIFETIMEVET_CACHE, or else in
// lifetimevet under the user's cache directory; -cache=off bypasses it.

// cacheDir returns the directory of the analysis cache.
func cacheDir() (string, error) {
	if dir := os.Getenv("LIFETIMEVET_CACHE"); dir != "" {
		if dir == "off" {
			return "", fmt.Errorf("LIFETIMEVET_CACHE=off")
		}
		if !filepath.IsAbs(dir) {
			return "", fmt.Errorf("LIFETIMEVET_CACHE is not an absolute path: %s", dir)
		}
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("LIFETIMEVET_CACHE is not set and %v", err)
	}
	return filepath.Join(dir, "lifetimevet"), nil
}

// openCache opens the analysis cache unless mode is "off", and returns
// it with the key material that every package's key shares: the
// executable's identity, the build environment, and each of extra (the
// build flags; the model and configuration files are in each package's
// own key, see inputs.go). A cache that cannot be opened is reported on
// stderr and not used: the run is as without one. The cache's Close trims entries unused for five
// days (at most once a day).
func openCache(mode string, extra ...[]byte) (cache.Cache, []byte) {
	switch mode {
	case "off":
		return nil, nil
	case "", "on":
	default:
		fmt.Fprintf(os.Stderr, "%s: -cache=%s: want on or off; not using the cache\n", progName(), mode)
		return nil, nil
	}
	dir, err := cacheDir()
	if err != nil {
		if os.Getenv("LIFETIMEVET_CACHE") != "off" {
			fmt.Fprintf(os.Stderr, "%s: not using the analysis cache: %v\n", progName(), err)
		}
		return nil, nil
	}
	exe, err := executableID()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: not using the analysis cache: %v\n", progName(), err)
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		fmt.Fprintf(os.Stderr, "%s: not using the analysis cache: %v\n", progName(), err)
		return nil, nil
	}
	if _, err := os.Stat(filepath.Join(dir, "README")); err != nil {
		os.WriteFile(filepath.Join(dir, "README"), []byte("This directory holds lifetimevet's analysis cache (facts and findings per package).\nIt can be removed at any time.\n"), 0o666)
	}
	c, err := cache.Open(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: not using the analysis cache: %v\n", progName(), err)
		return nil, nil
	}
	h := sha256.New()
	fmt.Fprintf(h, "exe %x\x00go %s %s/%s\x00", exe, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	// the environment that selects files, builds cgo's output or
	// changes type sizes (cgo's output itself is in the key too)
	for _, v := range []string{"GOOS", "GOARCH", "GOARM", "GOAMD64", "GO386", "CGO_ENABLED", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS", "CC", "GOFLAGS", "GOEXPERIMENT", "GOTOOLCHAIN", "GOWORK", "GO111MODULE", "GOPATH", "GOROOT"} {
		fmt.Fprintf(h, "env %s=%q\x00", v, os.Getenv(v))
	}
	if f := cpreamble.GoEnvFile(); f != "" {
		// go env -w's variables (CGO_CFLAGS among them)
		data, _ := os.ReadFile(f)
		fmt.Fprintf(h, "goenv %d %s\x00", len(data), data)
	}
	for _, e := range extra {
		fmt.Fprintf(h, "extra %d %s\x00", len(e), e)
	}
	return c, h.Sum(nil)
}

var (
	exeOnce sync.Once
	exeSum  []byte
	exeErr  error

	hashesOnce sync.Once
	hashes     *driver.FileHashes
)

// fileHashes returns the memo of file hashes kept with the analysis cache
// (driver.FileHashes), opened once per process, or nil when there is no
// cache directory.
func fileHashes() *driver.FileHashes {
	hashesOnce.Do(func() {
		if dir, err := cacheDir(); err == nil {
			if err := os.MkdirAll(dir, 0o777); err == nil {
				hashes = driver.OpenFileHashes(filepath.Join(dir, "filehashes"))
			}
		}
	})
	return hashes
}

// executableID returns the hash of the running executable's content,
// computed once per process (through the memo of file hashes): a rebuilt
// lifetimevet has other analyzers, so none of its predecessor's entries.
func executableID() ([]byte, error) {
	exeOnce.Do(func() {
		name, err := os.Executable()
		if err != nil {
			exeErr = err
			return
		}
		sum, err := fileHashes().Sum(name)
		if err != nil {
			exeErr = err
			return
		}
		exeSum = sum[:]
	})
	return exeSum, exeErr
}

// cacheFlag is the value of -cache: "on" or "off"; any other value is a
// flag error (exit status 2), as for any bad flag value.
type cacheFlag string

func (f *cacheFlag) String() string { return string(*f) }

func (f *cacheFlag) Set(s string) error {
	if s != "on" && s != "off" {
		return fmt.Errorf("want on or off")
	}
	*f = cacheFlag(s)
	return nil
}

// newCacheFlag defines -cache on fs with the given usage, default on.
func newCacheFlag(fs *flag.FlagSet, usage string) *string {
	v := cacheFlag("on")
	fs.Var(&v, "cache", usage)
	return (*string)(&v)
}
