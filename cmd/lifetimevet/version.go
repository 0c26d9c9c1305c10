package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// buildVersion is what the binary knows of its own build, from
// runtime/debug.ReadBuildInfo.
type buildVersion struct {
	module   string // the main module's path
	version  string // its version; "" when the go command recorded none ("(devel)")
	revision string // vcs.revision, "" when not recorded
	time     string // vcs.time
	modified bool   // vcs.modified
	goVer    string // the Go release that built it
}

func readBuildVersion() buildVersion {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return buildVersion{}
	}
	v := buildVersion{module: bi.Main.Path, goVer: bi.GoVersion}
	if bi.Main.Version != "(devel)" {
		v.version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.revision = s.Value
		case "vcs.time":
			v.time = s.Value
		case "vcs.modified":
			v.modified = s.Value == "true"
		}
	}
	return v
}

// short is the version in one word: the module version, else "devel"
// and the revision (devel+REV, devel+REV-dirty), else "devel".
func (v buildVersion) short() string {
	if v.version != "" {
		return v.version
	}
	if v.revision != "" {
		s := "devel+" + v.revision[:min(12, len(v.revision))]
		if v.modified {
			s += "-dirty"
		}
		return s
	}
	return "devel"
}

// sarif is the version SARIF's tool.driver.version gives: the same as
// short, left out ("") when nothing is known.
func (v buildVersion) sarif() string {
	if s := v.short(); s != "devel" {
		return s
	}
	return ""
}

// printVersion is `lifetimevet version` and `lifetimevet -version`.
func printVersion(w io.Writer) {
	v := readBuildVersion()
	fmt.Fprintf(w, "%s %s\n", progName(), v.short())
	if v.module != "" {
		mv := v.version
		if mv == "" {
			mv = "(devel): built from a checkout"
		}
		fmt.Fprintf(w, "module %s %s\n", v.module, mv)
	}
	switch {
	case v.revision != "":
		rev := "revision " + v.revision
		if v.time != "" {
			rev += " (" + v.time + ")"
		}
		if v.modified {
			rev += ", with uncommitted changes"
		}
		fmt.Fprintln(w, rev)
	case v.version == "":
		fmt.Fprintln(w, "revision not recorded (built outside a git checkout, or with -buildvcs=false)")
	}
	if v.goVer != "" {
		fmt.Fprintf(w, "built with %s\n", v.goVer)
	}
}

// printVetToolID is -V=full, the identity the go command's vet action
// keys its cache on (cmd/go's toolID): "NAME version VERSION buildID=ID"
// for a released version (the go command uses the whole line), or "NAME
// version devel [REV] buildID=ID" (it uses ID). ID is a SHA-256 of the
// executable, as x/tools' unitchecker gives it, so that it changes
// whenever the binary does, with or without a version. The hash also
// covers whether go vet prints text (goVetText): the text has the
// analyzers' names at the end of the messages, the JSON not, while the
// go command gives the tool the same flags for both; and the content of
// the model and configuration files go vet cannot see (inputsDigest).
func printVetToolID(w io.Writer) error {
	mode := "json"
	if goVetText() {
		mode = "text"
	}
	// the model and configuration files' content (vetcache.go)
	inputs, err := inputsHex()
	if err != nil {
		return err
	}
	id, err := executableHash(mode + "\x00" + inputs)
	if err != nil {
		return err
	}
	v := readBuildVersion()
	words := []string{progName(), "version"}
	if v.version != "" {
		words = append(words, v.version)
	} else {
		words = append(words, "devel")
		if s := v.short(); s != "devel" {
			words = append(words, strings.TrimPrefix(s, "devel+"))
		}
	}
	words = append(words, "buildID="+id)
	_, err = fmt.Fprintln(w, strings.Join(words, " "))
	return err
}

// executableHash returns the hex SHA-256 of the running executable and
// extra.
func executableHash(extra string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	io.WriteString(h, "\x00"+extra)
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

// versionFull reports whether args ask for -V=full (go vet's question).
func versionFull(args []string) bool {
	for _, a := range args {
		if a == "-V=full" || a == "--V=full" {
			return true
		}
	}
	return false
}
