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
