// Package sharedglobal defines an Analyzer that reports package-level state
// mutated where goroutines can overlap, in Go and in the package's own C.
//
// # Analyzer sharedglobal
//
// sharedglobal: report package-level variables, in Go and in the
// package's own C, mutated without a lock where goroutines can overlap
//
// A package-level counter, registry map or lazily created handle that two
// goroutines update at once loses updates, or corrupts the map. In Go the
// analyzer reports read-modify-write (n++, n += k, x = append(x, v)), map
// writes and deletes, and check-then-set of a lazily created value, in
// functions that can run at the same time as themselves or as another
// writer, without a lock held or an atomic type; and a map read without a
// lock where the map is written elsewhere under one. In the package's own C
// (the cgo preamble and the package's .c files) it reports file-scope
// variables and function-local statics that are neither const, _Atomic nor
// thread-local and are written by a C function that Go calls where
// goroutines can overlap.
package sharedglobal

import "honnef.co/go/tools/analysis/lint"

// Doc is the analyzer's documentation, in staticcheck's structure.
var Doc = &lint.RawDocumentation{
	Title: "Package-level state mutated where goroutines can overlap",
	Text: `A package-level counter, registry map, slice or lazily created handle is
shared by every goroutine of the program. Two goroutines that update it at
once lose updates (n++ is a load and a store), corrupt a map (the runtime
stops the program with "concurrent map writes" when it notices, and
corrupts memory when it does not), or both create the handle that was
meant to be created once. In a package that uses cgo the same holds for
the C the package compiles: a static counter in the preamble, updated by
every call, is a data race that neither the race detector nor 'go vet'
sees.

Scope: the Go rules apply in packages that call C, where every cgo call
is a synchronization point for the race detector and hides these races
from go test -race, and to variables that hold C handles or C memory in
any package. Go globals of pure-Go packages are the race detector's.

In Go, the analyzer reports, for package-level variables:

- read-modify-write: n++, n += k, x = append(x, v), and a write of a
value computed from the variable's own earlier value (peak = cur after
if cur > peak);
- map writes and deletes;
- check-then-set of a lazily created value (if h == nil { h = create() }),
also when a helper the branch calls sets it, or when the set holds a lock
that the check does not and nothing tests it again under the lock;
- a map read without a lock where the map is written elsewhere under one;

in a function that can run at the same time as itself, or as another
function that writes the variable: reached from a go statement in a loop,
from two goroutines (a goroutine and its spawner, go f(x); f(x)), a finalizer, an //export function (C threads), or,
in a package that uses cgo and says its callers run at once, exported
functions and methods (library API): the package or the function is
documented for concurrent callers, or the package guards package-level
state of its own (a package-level mutex it locks, sync/atomic variables,
sync.Map). Being exported is no evidence on its own, and a package that
pins its work to one OS thread (runtime.LockOSThread in its Init) has
none. Set-up and teardown
API (exported functions named Init…, Initialize…, Setup…, Shutdown…,
Destroy…, Cleanup…, Load…, Set…) is taken to be called once, before or
after concurrent use, as such functions document: it counts as evidence
for read-modify-writes and map writes, not for a check-then-set or a
plain assignment in C. Exported functions of test files are not library
API. It is silent for init functions and package initialisers (and
functions only they call), sync.Once bodies (Do, OnceFunc, OnceValue),
accesses with a sync.Mutex or RWMutex held (also in an unexported
function whose callers in the package all hold it, or one documented as
called with a package-level mutex held), variables of sync/atomic
types, sync.Map, a map loaded under its lock and swapped out, and test
files (the flag -sharedglobal.tests includes them).

In C, it reports file-scope variables that are neither const, _Atomic nor
thread-local (_Thread_local, thread_local, __thread), and function-local
statics, that a C function writes when Go calls it (directly or through
the package's other C functions) from code where goroutines can overlap.
A variable's type is judged after the typedefs, struct tags and macros the
package's C (its preambles, .c and .h files) defines are resolved: one
declared with typedef _Atomic long counter_t, with a macro that stands for
_Thread_local, or with a C11 <stdatomic.h> type (atomic_long,
atomic_size_t, …) is atomic or thread-local. A type name the package's C
does not define (from a library's header) is taken as not atomic.
The finding is at the variable's definition: on the Go file's line for a
preamble, in the .c file otherwise. Vendored amalgamations (C files of
more than 5000 lines) and headers of more than 50,000 lines are skipped
unless -sharedglobal.largec is given; the run names each file skipped on
standard error, since the C after a skipped header is not analysed either.

The fix is a sync.Mutex held around the update, a sync/atomic type
(atomic.Int64, atomic.Pointer), sync.Map, or sync.Once for lazy creation;
in C, _Atomic, thread-local storage, or a lock.

Known limits: locks are told apart by variable, not by which data they
protect; a plain store that is not a read-modify-write (last = err) is
not reported; the C side is read by a tolerant scanner without the
preprocessor (macros that expand to writes, and writes through pointers
to a global, are not seen; of each #if, the arms the build does not
compile for the target (#if 0, a macro the C defines or undefines above,
the compiler's platform macros such as _WIN32 or __linux__, include
guards) are skipped, and a write under a condition it cannot decide, such
as a macro only a header or -D can define, is not evidence), and
C code that takes its own lock (pthread_mutex_lock, mtx_lock,
EnterCriticalSection, sqlite3_mutex_enter), directly, through a macro the
package's C defines (#define LOCK() pthread_mutex_lock(&mu)) or through a
lock wrapper (a package C function that takes a lock and returns holding
it, static void lock(void) { pthread_mutex_lock(&mu); }), is trusted, with
everything it calls; which of its writes fall between the lock and the
unlock is not told apart.`,
	Before: `var allocated int64

func Malloc(n int) unsafe.Pointer {
	allocated += int64(n)
	return C.malloc(C.size_t(n))
}`,
	After: `var allocated atomic.Int64

func Malloc(n int) unsafe.Pointer {
	allocated.Add(int64(n))
	return C.malloc(C.size_t(n))
}`,
	Since: "v0.1.0",
}
