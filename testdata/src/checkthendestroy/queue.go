package checkthendestroy

import "sync"

// Check-then-act on slices and maps that a lock guards elsewhere, in types
// that own no handle: the lock is the evidence that goroutines share them.

// Jobs pops from the back without the lock that Add holds.
type Jobs struct {
	mu      sync.Mutex
	pending []int
}

func (j *Jobs) Add(n int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pending = append(j.pending, n)
}

func (j *Jobs) Take() int {
	if n := len(j.pending); n > 0 { // want `Take checks j.pending and then sets it \(line \d+\) without a guard: two goroutines \(Jobs has a mutex, which guards pending elsewhere\) can both pass the check; hold j.mu across both`
		v := j.pending[n-1]
		j.pending = j.pending[:n-1]
		return v
	}
	return -1
}

func (j *Jobs) TakeOK() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	if n := len(j.pending); n > 0 {
		v := j.pending[n-1]
		j.pending = j.pending[:n-1]
		return v
	}
	return -1
}

// Inbox pops through a helper that its exported method calls without the
// lock; the helper its locked caller uses is guarded by that caller.
type Inbox struct {
	mu   sync.Mutex
	msgs []string
}

func (b *Inbox) Post(m string) {
	b.mu.Lock()
	b.msgs = append(b.msgs, m)
	b.mu.Unlock()
}

func (b *Inbox) shift() string {
	if len(b.msgs) == 0 { // want `shift checks b.msgs and then sets it \(line \d+\) without a guard`
		return ""
	}
	m := b.msgs[0]
	b.msgs = b.msgs[1:]
	return m
}

func (b *Inbox) Read() string { return b.shift() }

func (b *Inbox) shiftHeld() string {
	if len(b.msgs) == 0 {
		return ""
	}
	m := b.msgs[0]
	b.msgs = b.msgs[1:]
	return m
}

func (b *Inbox) ReadOK() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.shiftHeld()
}

// Names adds to a map after testing it, in a function literal, without the
// lock that Forget holds.
type Names struct {
	mu    sync.Mutex
	index map[string]int
}

func (n *Names) Forget(s string) {
	n.mu.Lock()
	delete(n.index, s)
	n.mu.Unlock()
}

func (n *Names) Intern(s string) int {
	add := func() int {
		if v, ok := n.index[s]; ok { // want `the function literal in Intern checks n.index and then sets it \(line \d+\) without a guard`
			return v
		}
		n.index[s] = len(n.index)
		return n.index[s]
	}
	return add()
}

// Stack has no lock anywhere: nothing says goroutines share it.
type Stack struct{ items []int }

func (s *Stack) Pop() int {
	if len(s.items) > 0 {
		v := s.items[0]
		s.items = s.items[1:]
		return v
	}
	return -1
}
