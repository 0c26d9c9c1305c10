package testruns

import "testing"

// The test reads the handle while a goroutine it started closes the
// statement.
func TestSameTest(t *testing.T) {
	st := Open()
	go st.Close()
	if st.s == nil { // want `TestSameTest reads st.s without st.mu, which Close holds when it changes it \(testruns.go:35\): Close can run in between \(the caller of TestSameTest and the goroutine started at line 9\)`
		t.Log("closed")
	}
	st.Step()
}

// Corrected (sequential tests): one test starts the goroutine, another
// reads the handle; go test never runs the two at once.
func TestStartsGoroutine(t *testing.T) {
	st := Open()
	go st.Close()
	st.Step()
}

func TestReads(t *testing.T) {
	st := Open()
	if st.s == nil { // no finding: no goroutine of this test closes st
		t.Log("closed")
	}
}

// Tests that call t.Parallel run at the same time as each other.
func TestParallelStarts(t *testing.T) {
	t.Parallel()
	st := Open()
	go st.Close()
}

func TestParallelReads(t *testing.T) {
	t.Parallel()
	st := Open()
	if st.s == nil { // want `TestParallelReads reads st.s without st.mu, .*\(the caller of TestParallelReads and the goroutine started at line 35\)`
		t.Log("closed")
	}
}

// A goroutine that a subtest starts through a helper belongs to its test.
func startClose(st *Stmt) { go st.Close() }

func TestHelper(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		startClose(Open())
	})
}

// A helper that two tests call: the finding names the one whose goroutine
// meets it (not the first test that calls it).
func readHandle(t *testing.T, st *Stmt) {
	if st.s == nil { // want `readHandle reads st.s without st.mu, .*\(the caller of TestHelperRacing and the goroutine started at line 67\)`
		t.Log("closed")
	}
}

func TestHelperQuiet(t *testing.T) { readHandle(t, Open()) }

func TestHelperRacing(t *testing.T) {
	st := Open()
	go st.Close()
	readHandle(t, st)
}
