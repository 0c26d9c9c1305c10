// Package lockutil holds lock helpers that another package's types use:
// their effects reach the importer as facts.
package lockutil

import "sync"

func Lock(mu *sync.Mutex)   { mu.Lock() }
func Unlock(mu *sync.Mutex) { mu.Unlock() }

// TryLock takes mu when it returns true.
func TryLock(mu *sync.Mutex) bool { return mu.TryLock() }

// Touch takes and drops mu: its caller holds nothing after it.
func Touch(mu *sync.Mutex) { mu.Lock(); mu.Unlock() }

// With calls f holding mu.
func With(mu *sync.Mutex, f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}

// Mutex is a lock type of its own (as go-deadlock's or a syncutil's):
// it has sync.Locker's methods.
type Mutex struct{ mu sync.Mutex }

func (m *Mutex) Lock()   { m.mu.Lock() }
func (m *Mutex) Unlock() { m.mu.Unlock() }

// NotALock has a Lock method of another shape: it is no lock.
type NotALock struct{ n int }

func (l *NotALock) Lock(n int) { l.n = n }
func (l *NotALock) Unlock()    {}
