package refs

import (
	"errors"
	"sync"
)

// After go-nvml: a library's reference count, updated under its lock
// through methods of the count's own type, and read outside the lock.
type refcount int

func (r *refcount) IncOnNoError(err error) {
	if err == nil {
		(*r)++
	}
}

func (r *refcount) DecOnNoError(err error) {
	if err == nil && (*r) > 0 {
		(*r)--
	}
}

type library struct {
	sync.Mutex
	refcount refcount
	dl       *dynamicLibrary
}

type dynamicLibrary struct{}

func (d *dynamicLibrary) Open() error  { return nil }
func (d *dynamicLibrary) Close() error { return nil }

var errNotLoaded = errors.New("not loaded")

func (l *library) Lookup(name string) error {
	if l == nil || l.refcount == 0 { // want `Lookup reads the reference count l.refcount without l.Mutex, which load holds when it updates it \(line 47\)`
		return errNotLoaded
	}
	return nil
}

func (l *library) load() (rerr error) {
	l.Lock()
	defer l.Unlock()
	defer func() { l.refcount.IncOnNoError(rerr) }()
	if l.refcount > 0 {
		return nil
	}
	return l.dl.Open()
}

func (l *library) Shutdown() error {
	l.Lock()
	defer l.Unlock()
	if l.refcount == 0 {
		return errNotLoaded
	}
	return l.closeLocked()
}

func (l *library) closeLocked() (rerr error) {
	defer func() { l.refcount.DecOnNoError(rerr) }()
	if l.refcount != 1 {
		return nil
	}
	return l.dl.Close()
}

// Fixed: the read holds the lock.
func (l *library) LookupLocked(name string) error {
	l.Lock()
	defer l.Unlock()
	if l.refcount == 0 {
		return errNotLoaded
	}
	return nil
}

func (l *library) Load() error { return l.load() }
