// Package own holds finalizer helpers a module shares between its
// packages.
package own

import "runtime"

// Arm sets f as x's finalizer.
func Arm[T any](x *T, f func(*T)) { runtime.SetFinalizer(x, f) }

// Track arms through Arm.
func Track[T any](x *T, f func(*T)) { Arm(x, f) }

// Watch takes interface values, as runtime.SetFinalizer does.
func Watch(x, f any) { runtime.SetFinalizer(x, f) }

// Hooks keeps a function for later; it arms nothing.
var Hooks []any

func Remember(x, f any) { Hooks = append(Hooks, x, f) }
