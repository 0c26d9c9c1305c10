package sharedglobal_test

import (
	"testing"

	"github.com/lifetimevet/lifetimevet/analyzers/sharedglobal"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func TestSharedGlobal(t *testing.T) {
	testutil.Run(t, sharedglobal.Analyzer, "sharedglobal/...")
}
