// Package ctorname holds the handleleak cases of the constructor-name rule
// (a C function named like a constructor that returns, or writes through
// its only T ** parameter, a T * that a function the package calls
// releases) and of the package's own C functions that use a handle only
// during the call (a stub or a helper that writes through it), which do
// not take it: no model or directive describes any function here.
package ctorname

/*
#include <stdlib.h>
typedef struct { int level; int dead; } enc_t;
typedef struct { int fd; } res_t;
typedef struct { int n; } cfg_t;
typedef struct lib_stream_s { int open; } lib_stream;

static enc_t* enc_create(void) { return (enc_t*)calloc(1, sizeof(enc_t)); }
static void enc_free(enc_t* e) { e->dead = 1; }
static int enc_set_level(enc_t* e, int l) { if (l > 9 || e == NULL) return -1; e->level = l; return 0; }
static int enc_check(enc_t* e) { if (!e) return -1; return enc_set_level(e, e->level); }

static enc_t* installed;
static void enc_install(enc_t* e) { installed = e; }
static enc_t* enc_last;
static int enc_remember(enc_t* e) { enc_last = e; return 0; }
int lib_enc_register(enc_t* e);
static int enc_register(enc_t* e) { return lib_enc_register(e); }

static int res_open(res_t** out, const char* path) { *out = (res_t*)calloc(1, sizeof(res_t)); return 0; }
static void res_close(res_t* r) { free(r); }
static int res_read(res_t* r, int n) { return r->fd + n; }

static lib_stream* libNewStream(int flags) { return (lib_stream*)calloc(1, sizeof(lib_stream)); }
static void libStreamDestroy(lib_stream* s) { free(s); }
static int libStreamStart(lib_stream* s) { s->open = 1; return 0; }

typedef struct { int acks; } kconf_t;
typedef struct { kconf_t* conf; } kclient_t;
kconf_t* kconf_new(void);
void kconf_destroy(kconf_t* c);
kclient_t* kclient_new(kconf_t* conf, const char* name);
void kclient_destroy(kclient_t* k);
int kclient_connect(kclient_t* k);

typedef struct gui_window gui_window;
gui_window* gui_window_create(int w, int h);
void gui_window_destroy(gui_window* w);

static cfg_t* enc_open_config(enc_t* e) { static cfg_t c; return &c; }
static int cfg_valid(cfg_t* c) { return c->n >= 0; }
*/
import "C"

import (
	"errors"
	"unsafe"
)

type Encoder struct{ e *C.enc_t }

func (e *Encoder) Close() { C.enc_free(e.e) }

// enc_set_level only writes through its argument: the handle is still
// the caller's, and the error return leaks it.
func NewEncoder(level int) (*Encoder, error) {
	e := C.enc_create() // want `the handle C.enc_create returns is not released on every path \(the return at line 70 leaks it\)`
	if e == nil {
		return nil, errors.New("out of memory")
	}
	if C.enc_set_level(e, C.int(level)) != 0 {
		return nil, errors.New("bad level")
	}
	return &Encoder{e}, nil
}

// The corrected constructor.
func NewEncoderFixed(level int) (*Encoder, error) {
	e := C.enc_create()
	if e == nil {
		return nil, errors.New("out of memory")
	}
	if C.enc_set_level(e, C.int(level)) != 0 {
		C.enc_free(e)
		return nil, errors.New("bad level")
	}
	return &Encoder{e}, nil
}

// Through a helper of the package's C that passes it on to one that only
// uses it.
func NewChecked() (*Encoder, error) {
	e := C.enc_create() // want `the handle C.enc_create returns is not released on every path`
	if e == nil {
		return nil, errors.New("out of memory")
	}
	if C.enc_check(e) != 0 {
		return nil, errors.New("check failed")
	}
	return &Encoder{e}, nil
}

// A function of the package's C that stores its argument keeps it: the
// handle is handed on, not leaked.
func Install() error {
	e := C.enc_create()
	if e == nil {
		return errors.New("out of memory")
	}
	C.enc_install(e)
	return nil
}

// The same with a status: the store happens whatever the status says.
func Remember() error {
	e := C.enc_create()
	if e == nil {
		return errors.New("out of memory")
	}
	if C.enc_remember(e) != 0 {
		return errors.New("remember failed")
	}
	return nil
}

// A helper that hands its argument to a library function unknown here may
// keep it.
func Register() error {
	e := C.enc_create()
	if e == nil {
		return errors.New("out of memory")
	}
	if C.enc_register(e) != 0 {
		return errors.New("register failed")
	}
	return nil
}

// An out-parameter constructor whose status is tested.
type Resource struct{ r *C.res_t }

func (r *Resource) Close() { C.res_close(r.r) }

func Open(path *C.char, n int) (*Resource, error) {
	var r *C.res_t
	if C.res_open(&r, path) != 0 { // want `the handle C.res_open acquires into r is not released on every path \(the return at line 148 leaks it\)`
		return nil, errors.New("open failed")
	}
	if C.res_read(r, C.int(n)) < 0 {
		return nil, errors.New("read failed")
	}
	return &Resource{r}, nil
}

func OpenFixed(path *C.char, n int) (*Resource, error) {
	var r *C.res_t
	if C.res_open(&r, path) != 0 {
		return nil, errors.New("open failed")
	}
	if C.res_read(r, C.int(n)) < 0 {
		C.res_close(r)
		return nil, errors.New("read failed")
	}
	return &Resource{r}, nil
}

// CamelCase, the verb after the library's prefix.
type Stream struct{ s *C.lib_stream }

func (s *Stream) Destroy() { C.libStreamDestroy(s.s) }

func StartStream() (*Stream, error) {
	s := C.libNewStream(0) // want `the handle C.libNewStream returns is not released on every path`
	if s == nil {
		return nil, errors.New("out of memory")
	}
	if C.libStreamStart(s) != 0 {
		return nil, errors.New("start failed")
	}
	return &Stream{s}, nil
}

// A name that reads as a constructor, of a type nothing the package calls
// releases: no handle (enc_open_config returns the encoder's own
// configuration).
func ConfigValid(e *Encoder) bool {
	c := C.enc_open_config(e.e)
	if c == nil {
		return false
	}
	return C.cfg_valid(c) != 0
}

// A constructor known by its name (kclient_new) may take an object it is
// given (the library's documentation says it takes the configuration on
// success): the configuration is handed on, no leak of it after that.
type Client struct{ k *C.kclient_t }

func (c *Client) Close() { C.kclient_destroy(c.k) }

func Connect(name *C.char) (*Client, error) {
	conf := C.kconf_new()
	k := C.kclient_new(conf, name)
	if k == nil {
		C.kconf_destroy(conf)
		return nil, errors.New("bad configuration")
	}
	if C.kclient_connect(k) != 0 {
		C.kclient_destroy(k)
		return nil, errors.New("connect failed")
	}
	return &Client{k}, nil
}

// A string it copies: a C string given to a constructor is still the
// caller's to free.
func Named(name string) (*Client, error) {
	conf := C.kconf_new()
	cname := C.CString(name) // want `the handle C.CString returns is not released on every path`
	k := C.kclient_new(conf, cname)
	if k == nil {
		C.kconf_destroy(conf)
		return nil, errors.New("bad configuration")
	}
	return &Client{k}, nil
}

// A Go type defined as an incomplete C type, released through an accessor
// that cgo's pointer check evaluates inside its wrapper: the release's
// argument is not named, so Destroy may release what it is given, and
// the deferred Destroy is no leak.
type Window C.gui_window

func (w *Window) cptr() *C.gui_window { return (*C.gui_window)(unsafe.Pointer(w)) }

func (w *Window) Destroy() { C.gui_window_destroy(w.cptr()) }

func CreateWindow(width, height int) (*Window, error) {
	w := C.gui_window_create(C.int(width), C.int(height))
	if w == nil {
		return nil, errors.New("no window")
	}
	return (*Window)(unsafe.Pointer(w)), nil
}

func ShowWindow() error {
	win, err := CreateWindow(640, 480)
	if err != nil {
		return err
	}
	defer win.Destroy()
	println("shown")
	return nil
}
