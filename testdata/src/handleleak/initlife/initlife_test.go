package initlife

import (
	"os"
	"testing"
)

var testLib *Lib

func init() {
	l, err := open("test")
	if err != nil {
		panic(err)
	}
	testLib = l
}

// TestMain holds a library for the whole test binary.
func TestMain(m *testing.M) {
	l, err := openRaw("main")
	if err != nil {
		os.Exit(2)
	}
	_ = l
	if code := m.Run(); code != 0 {
		os.Exit(code)
	}
}
