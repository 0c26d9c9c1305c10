package indirect

/*
typedef struct { int n; } picture;
extern int picture_join(picture** in, int n, picture** out);
*/
import "C"

import "runtime"

// Handles of the argument objects copied into a Go slice by a helper
// function, which the caller hands to C as an array: the objects must be
// kept alive across the call as when the caller copies them itself.
func handlesOf(ps []*Picture) []*C.picture {
	out := make([]*C.picture, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.p)
	}
	return out
}

func JoinAll(ps []*Picture) *Picture {
	ins := handlesOf(ps)
	var out *C.picture
	C.picture_join(&ins[0], C.int(len(ins)), &out) // want `the Picture objects in ps may be collected while C.picture_join runs with handles copied out of them`
	return newPicture(out)
}

func JoinAllOK(ps []*Picture) *Picture {
	ins := handlesOf(ps)
	var out *C.picture
	C.picture_join(&ins[0], C.int(len(ins)), &out)
	runtime.KeepAlive(ps)
	return newPicture(out)
}

// The helper is a method that copies the handles of a field's objects.
type Album struct{ pics []*Picture }

func (a *Album) handles() []*C.picture {
	hs := make([]*C.picture, len(a.pics))
	for i := range a.pics {
		hs[i] = a.pics[i].p
	}
	return hs
}

func (a *Album) Join() *Picture {
	hs := a.handles()
	var out *C.picture
	C.picture_join(&hs[0], C.int(len(hs)), &out) // want `the Picture objects in a.pics may be collected while C.picture_join runs`
	return newPicture(out)
}

func (a *Album) JoinOK() *Picture {
	hs := a.handles()
	var out *C.picture
	C.picture_join(&hs[0], C.int(len(hs)), &out)
	runtime.KeepAlive(a)
	return newPicture(out)
}

// Built by one helper and handed to C by another.
func JoinBoth(ps []*Picture) *Picture {
	return newPicture(join(handlesOf(ps))) // want `the Picture objects in ps may be collected while join runs`
}

func JoinBothOK(ps []*Picture) *Picture {
	defer runtime.KeepAlive(ps)
	return newPicture(join(handlesOf(ps)))
}

// Raw C handles no finalizer owns, gathered by a helper: nothing to keep
// alive.
func rawOf(hs ...*C.picture) []*C.picture { return append([]*C.picture(nil), hs...) }

func joinRaw2(a, b *C.picture) *C.picture {
	ins := rawOf(a, b)
	var out *C.picture
	C.picture_join(&ins[0], 2, &out)
	return out
}
