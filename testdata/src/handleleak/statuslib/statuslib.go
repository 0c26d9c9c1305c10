// Package statuslib maps C status codes to Go errors, for the status tests
// of handleleak: its helpers reach importers through summary facts.
package statuslib

import (
	"errors"
	"fmt"
)

// Code is a library status: 0 is success.
type Code int

func (c Code) Error() string { return fmt.Sprintf("status %d", int(c)) }

// Check returns nil exactly when rc is 0.
func Check(rc int) error {
	if rc == 0 {
		return nil
	}
	if rc < 0 {
		return errors.New("internal error")
	}
	return Code(rc)
}

// Wrap calls Check: a helper through a helper.
func Wrap(rc int, what string) error {
	if err := Check(rc); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// Failed reports whether rc is a failure.
func Failed(rc int) bool { return rc != 0 }

// Describe always returns an error: it does not map success to nil.
func Describe(rc int) error { return fmt.Errorf("finished with %d", rc) }
