// Package typos holds directives a person writes wrong: each near miss is
// reported with the spelling meant, and prose that merely mentions a
// lifetime stays silent.
package typos

// #include <stdlib.h>
// typedef struct { int n; } buf;
// static buf* buf_new(void) { return malloc(sizeof(buf)); }
// static void buf_drop(buf* b) { free(b); }
// //LIFETIME:acquire buf_new // want `malformed directive "//LIFETIME:acquire buf_new": write //lifetime:VERB, in lower case, with a colon and no space after //; did you mean //lifetime:acquire buf_new\?`
// //liftime:release buf_drop // want `did you mean //lifetime:release buf_drop\?`
// ///lifetime:release buf_drop // want `malformed directive "///lifetime:release buf_drop": write //lifetime:VERB, with two slashes; did you mean //lifetime:release buf_drop\?`
// //lifеtime:acquire buf_new // want `malformed directive "//lifеtime:acquire buf_new": 'е' in "lifеtime" is not the Latin letter it looks like \(U\+0435\); write //lifetime:VERB in ASCII; did you mean //lifetime:acquire buf_new\?`
// //lifetime​:release buf_drop // want `malformed directive "//lifetime\\u200b:release buf_drop": it holds the invisible character U\+200B; write //lifetime:VERB without it; did you mean //lifetime:release buf_drop\?`
import "C"

// Buf is meant to be a handle.
//
//lifetime-handle // want `malformed directive "//lifetime-handle": .*did you mean //lifetime:handle\?`
type Buf struct{ b *C.buf }

// Pool is meant to be thread-safe (a full-width colon).
//
//lifetime：threadsafe // want `did you mean //lifetime:threadsafe\?`
type Pool struct{}

/*lifetime:handle*/ // want `malformed directive "/\*lifetime:handle\*/": a directive is a line comment; did you mean //lifetime:handle\?`
type Blob struct{}

// Close releases the buffer.
//
//Lifetime:release // want `did you mean //lifetime:release\?`
func (b *Buf) Close() { C.buf_drop(b.b) }

// Open returns a fresh buffer.
//
//lifetmie:acquire // want `did you mean //lifetime:acquire\?`
func Open() *Buf { return &Buf{C.buf_new()} }

// Release has a verb typo after the right prefix.
//
//lifetime:relase // want `unknown directive //lifetime:relase: did you mean //lifetime:release\?`
func (b *Buf) Release() { C.buf_drop(b.b) }

// Prose is not a directive:
// Lifetime: the buffer lives until Close.
// lifetimes: see Close.
//lifetimes:differ between pools
func Use(b *Buf) {
	// liftime is spelled wrong here, but this is prose
	_ = b
}

// Spacing and namespace mistakes.
//
//lifetime :handle // want `did you mean //lifetime:handle\?`
type Spaced struct{ b *C.buf }

//lifetime handle // want `did you mean //lifetime:handle\?`
type NoColon struct{ b *C.buf }

//go:lifetime:handle // want `did you mean //lifetime:handle\?`
type Namespaced struct{ b *C.buf }

//ｌifetime:handle // want `did you mean //lifetime:handle\?`
type Wide struct{ b *C.buf }

// A lifetime handle is prose here, as is the lifetime of a handle.
type Prose struct{ b *C.buf }

// Invisible and look-alike bytes, and more slashes, on Go declarations.
//
///lifetime:handle // want `with two slashes; did you mean //lifetime:handle\?`
type Slashes struct{ b *C.buf }

////lifetime:handle // want `did you mean //lifetime:handle\?`
type MoreSlashes struct{ b *C.buf }

//lifetimе:handle // want `U\+0435.*did you mean //lifetime:handle\?`
type Cyrillic struct{ b *C.buf }

//​lifetime:handle // want `invisible character U\+200B; .*did you mean //lifetime:handle\?`
type ZeroWidthFirst struct{ b *C.buf }

//lifetime:handle​ // want `invisible character U\+200B; .*did you mean //lifetime:handle\?`
type ZeroWidthAfter struct{ b *C.buf }

//life­time:handle // want `invisible character U\+00AD; .*did you mean //lifetime:handle\?`
type SoftHyphen struct{ b *C.buf }

// lifetime:handle // want `the space U\+00A0, which is not an ASCII space; .*did you mean //lifetime:handle\?`
type NoBreakSpace struct{ b *C.buf }

//lifetime　:handle // want `the space U\+3000, .*did you mean //lifetime:handle\?`
type IdeographicSpace struct{ b *C.buf }

//lifétime:handle // want `the combining mark U\+0301; .*did you mean //lifetime:handle\?`
type CombiningMark struct{ b *C.buf }

/// lifetime: the buffer lives until Close (Doxygen-style prose)
/////////////////////////////////////////////////////////////////
// ​ lifetime of a pool (prose after an invisible space)
type DoxProse struct{ b *C.buf }

// The tool's name, a split word, and spaces after the slashes and the
// colon.
//
//lifetimevet:handle // want `did you mean //lifetime:handle\?`
type ToolName struct{ b *C.buf }

//life-time:handle // want `did you mean //lifetime:handle\?`
type Split struct{ b *C.buf }

// Prose after a colon stays prose:
// lifetime: release the buffer with Drop.
// life-time of a pool.
// life-time: release via Drop.
func More() {}

type Field struct {
	b *C.buf // lifetime: release in Drop
}
