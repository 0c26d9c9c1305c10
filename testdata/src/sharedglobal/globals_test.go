package sharedglobal

import "testing"

var testRuns int

// Silent by default: test files are left out.
func TestCount(t *testing.T) {
	t.Parallel()
	testRuns++
}

func Example() { testRuns++ }
