package places

// Field has a directive on a field.
type Field struct {
	//lifetime:handle // want `//lifetime:handle does not apply to a struct field; it goes on a type declaration$`
	p *int
	q *int //lifetime:handle // want `//lifetime:handle does not apply to a struct field`
}

// Param has a directive on a type parameter.
type Param[
	//lifetime:handle // want `//lifetime:handle does not apply to a type parameter; it goes on a type declaration$`
	T any] struct{ v T }

// Iface has a directive on a method.
type Iface interface {
	//lifetime:release // want `//lifetime:release does not apply to an interface method`
	Close()
}

//lifetime:handle // want `//lifetime:handle does not apply in a comment attached to no declaration; it goes on a type declaration, in the comment right above it with no blank line between`

// Floating is not a handle: the directive above is not in its doc comment.
type Floating struct{ p *int }

// Close is a method with the directive at the end of its line.
func (f *Floating) Close() { f.p = nil } //lifetime:release // want `//lifetime:release does not apply at the end of a declaration line; it goes on a function declaration or a cgo preamble, on a line of its own right above the declaration`

// Tail has a directive at the end of its line.
type Tail struct{ p *int } //lifetime:handle // want `//lifetime:handle does not apply at the end of a declaration line`

// Body has a directive on a statement.
func Body(p *int) {
	//lifetime:handle // want `//lifetime:handle does not apply to a statement`
	_ = p
}

// Args has a directive among its parameters.
func Args(
	//lifetime:borrow p // want `//lifetime:borrow does not apply to a parameter`
	p *int) {
	_ = p
}
