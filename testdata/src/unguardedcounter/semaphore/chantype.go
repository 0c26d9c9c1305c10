package semaphore

// A lock type of the package that is a channel: its methods send and
// receive on the receiver, which names the caller's semaphore.

type sema chan struct{}

func newSema() sema      { return make(sema, 1) }
func (s sema) acquire()  { s <- struct{}{} }
func (s sema) release()  { <-s }
func (s *sema) lockPtr() { *s <- struct{}{} }
func (s *sema) unlockPtr() {
	<-*s
}

// Stream takes its semaphore through the channel type's methods.
type Stream struct {
	s     sema
	calls int
	bytes int
}

func NewStream() *Stream { return &Stream{s: newSema()} }

func (st *Stream) Write(n int) {
	st.s.acquire()
	defer st.s.release()
	st.calls++
	st.bytes += n
}

// Flush takes it through the pointer methods.
func (st *Stream) Flush() {
	st.s.lockPtr()
	st.calls++
	st.s.unlockPtr()
}

// Late updates the count after the release.
func (st *Stream) Late() {
	st.s.acquire()
	st.s.release()
	st.calls++ // want `Late increments st.calls without atomics or a lock`
}

func (st *Stream) Spawn() {
	for range 4 {
		go st.Write(1)
		go st.Flush()
		go st.Late()
	}
}

// acquireOn and releaseOn are helpers of a channel parameter.
func acquireOn(ch chan struct{}) { ch <- struct{}{} }
func releaseOn(ch chan struct{}) { <-ch }

// Wide passes the same helpers a channel of four slots: it excludes
// nothing.
type Wide struct {
	ch chan struct{}
	n  int
}

func NewWide() *Wide { return &Wide{ch: make(chan struct{}, 4)} }

func (w *Wide) Use() {
	acquireOn(w.ch)
	w.n++ // want `Use increments w.n without atomics or a lock`
	releaseOn(w.ch)
}

func (w *Wide) Spawn() {
	for range 4 {
		go w.Use()
	}
}

// Alias takes its semaphore through a local copy of the field, which the
// deferred closure captures: the same channel.
type Alias struct {
	sem   chan struct{}
	calls int
}

func NewAlias() *Alias { return &Alias{sem: make(chan struct{}, 1)} }

func (a *Alias) Do() {
	s := a.sem
	s <- struct{}{}
	defer func() { <-s }()
	a.calls++
}

// Late copies it too, but counts after giving it back.
func (a *Alias) Late() {
	s := a.sem
	s <- struct{}{}
	<-s
	a.calls++ // want `Late increments a.calls without atomics or a lock`
}

// withSem runs f holding the semaphore it is given, as a withLock helper
// runs f holding a mutex.
func withSem(s chan struct{}, f func()) {
	s <- struct{}{}
	defer func() { <-s }()
	f()
}

func (a *Alias) With() {
	withSem(a.sem, func() { a.calls++ })
}

func (a *Alias) Spawn() {
	for range 4 {
		go a.Do()
		go a.Late()
		go a.With()
	}
}
