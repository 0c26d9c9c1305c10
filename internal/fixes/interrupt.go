package fixes

import (
	"os"
	"os/signal"
	"sync"
)

// The temporary files being written, removed if the process is stopped by
// a signal while one exists (SIGINT, SIGTERM, SIGHUP): a -fix run killed
// between writing the new content and putting it in place leaves nothing
// beside the user's files.
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
			temps.Lock()
			for n := range temps.names {
				os.Remove(n)
			}
			temps.Unlock()
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
