package places

/* //lifetime:handle */ // want `//lifetime:handle is in a /. ./ comment`

// Block is not a handle: its directive is in a block comment. // want +2 `//lifetime:handle is in a /. ./ comment`
/*
//lifetime:handle
*/
type Block struct{ p *int }
