package sharedglobal

import "testing"

var testRuns int

// Silent by default: test files are left out.
func TestCount(t *testing.T) {
	t.Parallel()
	testRuns++
}

func Example() { testRuns++ }

// Silent: an exported test function is not library API, so lazyGet is
// reached by no goroutine (after onnxruntime_go's tests).
func TestLazy(t *testing.T) { lazyGet() }
