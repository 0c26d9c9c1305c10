// Package cfg holds control flow graph helpers over go/ssa shared by passes.
package cfg

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// ReversePostorder returns the blocks of fn reachable from its entry in
// reverse postorder.
func ReversePostorder(fn *ssa.Function) []*ssa.BasicBlock {
	seen := make([]bool, len(fn.Blocks))
	var post []*ssa.BasicBlock
	type frame struct {
		b *ssa.BasicBlock
		i int
	}
	stack := []frame{{fn.Blocks[0], 0}}
	seen[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(top.b.Succs) {
			s := top.b.Succs[top.i]
			top.i++
			if !seen[s.Index] {
				seen[s.Index] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// LoopBlocks returns the blocks that lie on a cycle of fn's control flow
// graph (Tarjan's strongly connected components, iteratively).
func LoopBlocks(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	for b := range Loops(fn) {
		out[b] = true
	}
	return out
}

// Loops maps each block that lies on a cycle of fn's control flow graph to
// the number of its loop: the strongly connected component it belongs to
// (a loop and the loops nested in it are one), numbered from 0. Blocks on
// no cycle are absent.
func Loops(fn *ssa.Function) map[*ssa.BasicBlock]int {
	n := len(fn.Blocks)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	out := map[*ssa.BasicBlock]int{}
	next, loops := 0, 0
	type frame struct{ v, i int }
	for start := range n {
		if index[start] >= 0 {
			continue
		}
		call := []frame{{start, 0}}
		index[start], low[start] = next, next
		next++
		stack = append(stack, start)
		onStack[start] = true
		for len(call) > 0 {
			top := &call[len(call)-1]
			b := fn.Blocks[top.v]
			if top.i < len(b.Succs) {
				w := b.Succs[top.i].Index
				top.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[top.v] = min(low[top.v], index[w])
				}
				continue
			}
			v := top.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				var comp []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				self := false
				for _, s := range fn.Blocks[v].Succs {
					self = self || s.Index == v
				}
				if len(comp) > 1 || self {
					for _, w := range comp {
						out[fn.Blocks[w]] = loops
					}
					loops++
				}
			}
		}
	}
	return out
}

// Returns returns the return instructions of fn, in block order.
func Returns(fn *ssa.Function) []*ssa.Return {
	var rets []*ssa.Return
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			rets = append(rets, r)
		}
	}
	return rets
}

// After calls visit on the instructions reachable after from, in no
// particular order, until visit returns false.
func After(from ssa.Instruction, visit func(ssa.Instruction) bool) {
	b := from.Block()
	i := slices.Index(b.Instrs, from)
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock, start int) bool
	walk = func(b *ssa.BasicBlock, start int) bool {
		for _, instr := range b.Instrs[start:] {
			if !visit(instr) {
				return false
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if !walk(s, 0) {
					return false
				}
			}
		}
		return true
	}
	walk(b, i+1)
}

// Reaches reports whether to can run after from: later in from's block, or
// in a block reachable from it.
func Reaches(from, to ssa.Instruction) bool {
	reached := false
	After(from, func(instr ssa.Instruction) bool {
		reached = instr == to
		return !reached
	})
	return reached
}

// BlockReaches reports whether block to can be reached from block from
// (from itself included).
func BlockReaches(from, to *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == to {
			return true
		}
		if seen[b] {
			continue
		}
		seen[b] = true
		work = append(work, b.Succs...)
	}
	return false
}

// Dominates reports whether instruction a runs before b on every path to
// b: earlier in its block, or in a dominating block.
func Dominates(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		return slices.Index(a.Block().Instrs, a) < slices.Index(b.Block().Instrs, b)
	}
	return a.Block().Dominates(b.Block())
}
