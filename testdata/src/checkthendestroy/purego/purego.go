// Package purego calls no C: a check-then-pop of a slice that a lock
// guards elsewhere is ordinary Go state, which the race detector sees.
package purego

import "sync"

type Queue struct {
	mu   sync.Mutex
	errs []error
}

func (q *Queue) Push(err error) {
	q.mu.Lock()
	q.errs = append(q.errs, err)
	q.mu.Unlock()
}

func (q *Queue) Pop() error {
	if len(q.errs) > 0 {
		e := q.errs[0]
		q.errs = q.errs[1:]
		return e
	}
	return nil
}
