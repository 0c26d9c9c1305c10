// Package counted: a parent whose finalizer drops a counted reference is
// not destroyed while a child holds one (an OpenCL command queue retains
// its context), so a child wrapper need not keep the parent's wrapper.
package counted

/*
typedef struct _cl_context* cl_context;
typedef struct _cl_command_queue* cl_command_queue;
static int clReleaseContext(cl_context c) { return 0; }
static int clReleaseCommandQueue(cl_command_queue q) { return 0; }
static cl_command_queue clCreateCommandQueue(cl_context c, int dev, int props, int* err) { return 0; }
*/
import "C"

import "runtime"

type Context struct{ c C.cl_context }

func releaseContext(c *Context) { C.clReleaseContext(c.c) }

func NewContext(h C.cl_context) *Context {
	c := &Context{c: h}
	runtime.SetFinalizer(c, releaseContext)
	return c
}

type Queue struct{ q C.cl_command_queue }

func releaseQueue(q *Queue) { C.clReleaseCommandQueue(q.q) }

func (c *Context) NewQueue() *Queue {
	var err C.int
	q := &Queue{q: C.clCreateCommandQueue(c.c, 0, 0, &err)}
	runtime.SetFinalizer(q, releaseQueue)
	runtime.KeepAlive(c)
	return q
}
