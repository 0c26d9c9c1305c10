package cpreamble

// A C function that takes a lock is trusted to guard what it and its
// callees write (Reach). The lock may be taken directly
// (pthread_mutex_lock), through a macro the package's C defines, whose
// replacement calls a lock function (#define LOCK() pthread_mutex_lock(&mu)),
// or through a lock wrapper: a function of the package's C that takes a
// lock and returns holding it (static void lock(void) {
// pthread_mutex_lock(&mu); }), directly, through a macro or through another
// wrapper. Its counterpart, a function that releases a lock and takes none
// (unlock()), is a release wrapper: a function that calls both a lock and
// a release (wrapper) takes and gives back its own lock and is no wrapper,
// so calling it guards nothing in the caller. Only locks that stay held
// make a wrapper: a once-initialiser (pthread_once, call_once) or a wait
// (WaitForSingleObject, which also joins threads) returns holding nothing.
//
// As for a direct lock, which writes fall between the lock and its release
// is not told apart: the function that takes it is trusted with all of
// them (an unlock on an error path before the write it guards is common).

// heldLocks are the lock functions that return holding the lock.
var heldLocks = map[string]bool{
	"pthread_mutex_lock": true, "pthread_mutex_trylock": true, "pthread_mutex_timedlock": true,
	"pthread_rwlock_wrlock": true, "pthread_rwlock_trywrlock": true, "pthread_spin_lock": true,
	"pthread_spin_trylock": true, "mtx_lock": true, "mtx_trylock": true, "mtx_timedlock": true,
	"EnterCriticalSection": true, "TryEnterCriticalSection": true, "AcquireSRWLockExclusive": true,
	"os_unfair_lock_lock": true, "g_mutex_lock": true, "g_rec_mutex_lock": true,
	"sqlite3_mutex_enter": true, "uv_mutex_lock": true,
}

// unlockFuncs release what heldLocks take.
var unlockFuncs = map[string]bool{
	"pthread_mutex_unlock": true, "pthread_rwlock_unlock": true, "pthread_spin_unlock": true,
	"mtx_unlock": true, "LeaveCriticalSection": true, "ReleaseSRWLockExclusive": true,
	"os_unfair_lock_unlock": true, "g_mutex_unlock": true, "g_rec_mutex_unlock": true,
	"sqlite3_mutex_leave": true, "uv_mutex_unlock": true,
}

// maxWrapperDepth bounds the rounds of lockWrappers: wrappers of wrappers
// nest a few deep, never this deep.
const maxWrapperDepth = 32

// noteLock records what a call of name, in fn's body, does to locks.
func (fn *Func) noteLock(name string) {
	if lockFuncs[name] {
		fn.Locks = true
	}
	if heldLocks[name] {
		fn.takes = true
	}
	if unlockFuncs[name] {
		fn.releases = true
	}
}

// lockWrappers finds the package's lock and release wrappers (a fixpoint
// over the calls, for wrappers of wrappers) and makes every function that
// calls a lock wrapper one that takes a lock. funcs are all the package's
// C functions, headers' included.
func (r *Result) lockWrappers(funcs []*Func) {
	callee := func(fn *Func, name string) *Func {
		if g := r.callee(fn, name); g != nil {
			return g
		}
		for _, g := range r.headers[name] {
			return g
		}
		return nil
	}
	// each round recomputes from what the body itself does and what the
	// callees were found to be in the round before: a callee found to
	// release as well is no lock wrapper any more
	takes := map[*Func]bool{}
	releases := map[*Func]bool{}
	for _, fn := range funcs {
		takes[fn], releases[fn] = fn.takes, fn.releases
	}
	for range min(len(funcs)+1, maxWrapperDepth) {
		nt, nr := map[*Func]bool{}, map[*Func]bool{}
		changed := false
		for _, fn := range funcs {
			t, rel := fn.takes, fn.releases
			visit := func(name string) {
				if g := callee(fn, name); g != nil && g != fn {
					t = t || takes[g] && !releases[g]
					rel = rel || releases[g] && !takes[g]
				}
			}
			for _, c := range fn.Calls {
				visit(c.Name)
			}
			for _, c := range fn.viaMacro {
				visit(c)
			}
			nt[fn], nr[fn] = t, rel
			changed = changed || t != takes[fn] || rel != releases[fn]
		}
		takes, releases = nt, nr
		if !changed {
			break
		}
	}
	for _, fn := range funcs {
		fn.takes, fn.releases = takes[fn], releases[fn]
		if fn.takes {
			fn.Locks = true
		}
	}
}
