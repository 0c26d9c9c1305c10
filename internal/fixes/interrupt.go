package fixes

import (
	"os"
	"os/signal"
	"sync"
)

// The temporary files being written, removed if the process is stopped by
// a signal while one exists (SIGINT, SIGTERM, SIGHUP): a -fix run killed
// between writing the new content and putting it in place leaves nothing
// beside the user's files. The lock is also held while a temporary file
// takes a file's place (placing), so a signal then waits until the name
// holds either the run's own content, removed, or nothing; the handler
// keeps it until the process ends, so no other file is put in place.
var temps struct {
	sync.Mutex
	names map[string]bool
	once  sync.Once
}

// trackTemp records a temporary file until the returned function is
// called.
func trackTemp(name string) (done func()) {
	temps.once.Do(func() {
		// a signal the process ignores (nohup's SIGHUP, a background
		// job's SIGINT) stays ignored: catching it would make it stop
		// the run
		var sigs []os.Signal
		for _, sig := range stopSignals {
			if !signal.Ignored(sig) {
				sigs = append(sigs, sig)
			}
		}
		if len(sigs) == 0 {
			return
		}
		c := make(chan os.Signal, 1)
		signal.Notify(c, sigs...)
		go func() {
			sig := <-c
			temps.Lock() // held until the process ends
			for n := range temps.names {
				os.Remove(n)
			}
			signal.Reset(sigs...)
			reraise(sig)
		}()
	})
	temps.Lock()
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	temps.names[name] = true
	temps.Unlock()
	return func() {
		temps.Lock()
		delete(temps.names, name)
		temps.Unlock()
	}
}

// placing runs put, which puts the temporary file name in a file's place
// (or removes it), with no signal handled meanwhile: between an exchange
// and its check the name holds the file's old content, which the handler
// must neither remove nor leave behind. When put returns the name is no
// longer tracked: whatever it holds then, put has removed or named it.
func placing(name string, put func() error) error {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.names, name)
	return put()
}
