package convention

/*
typedef struct { int r, c; } mat;
static void mat_free(mat* m) {}
static int mat_rows(mat* m) { return m->r; }
static int mat_cols(mat* m) { return m->c; }
static int mat_sum(mat* m) { return 0; }
static int mat_mul(mat* a, mat* b) { return 0; }
static int mat_add(mat* a, mat* b) { return 0; }
static int mat_sub(mat* a, mat* b) { return 0; }
static int mat_div(mat* a, mat* b) { return 0; }
static int mat_max(mat* a, mat* b) { return 0; }
*/
import "C"

import (
	"cmp"
	"errors"
)

// Mat checks each operand of a binary operation through a validator of
// several matrices, or errors.Join of the checks: either is nil only when
// every check passed.
type Mat struct{ p *C.mat }

func (m *Mat) check() error {
	if m == nil || m.p == nil {
		return ErrClosed
	}
	return nil
}

func checkAll(ms ...*Mat) error {
	for _, x := range ms {
		if err := x.check(); err != nil {
			return err
		}
	}
	return nil
}

func (m *Mat) Close() {
	if m.p != nil {
		C.mat_free(m.p)
		m.p = nil
	}
}

func (m *Mat) Rows() (int, error) {
	if err := m.check(); err != nil {
		return 0, err
	}
	return int(C.mat_rows(m.p)), nil
}

func (m *Mat) Cols() (int, error) {
	if err := m.check(); err != nil {
		return 0, err
	}
	return int(C.mat_cols(m.p)), nil
}

func (m *Mat) Sum() (int, error) {
	if err := m.check(); err != nil {
		return 0, err
	}
	return int(C.mat_sum(m.p)), nil
}

func (m *Mat) Mul(o *Mat) (int, error) {
	if err := checkAll(m, o); err != nil {
		return 0, err
	}
	return int(C.mat_mul(m.p, o.p)), nil
}

func (m *Mat) Add(o *Mat) (int, error) {
	if err := errors.Join(m.check(), o.check()); err != nil {
		return 0, err
	}
	return int(C.mat_add(m.p, o.p)), nil
}

func (m *Mat) Div(o *Mat) (int, error) {
	if err := cmp.Or(m.check(), o.check()); err != nil {
		return 0, err
	}
	return int(C.mat_div(m.p, o.p)), nil
}

// Max checks each operand in a loop over them.
func (m *Mat) Max(o *Mat) (int, error) {
	for _, x := range []*Mat{m, o} {
		if x == nil || x.p == nil {
			return 0, ErrClosed
		}
	}
	return int(C.mat_max(m.p, o.p)), nil
}

// Sub checks the other operand only.
func (m *Mat) Sub(o *Mat) (int, error) {
	if err := checkAll(o); err != nil {
		return 0, err
	}
	return int(C.mat_sub(m.p, o.p)), nil // want `Sub passes m.p to C.mat_sub without checking it, but Close checks it, releases it and sets it to nil, and 7 of the 8 methods of Mat that pass it to C check it first`
}
