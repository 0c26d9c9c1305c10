package handleleak_test

import (
	"testing"

	"github.com/lifetimevet/lifetimevet/analyzers/handleleak"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func Test(t *testing.T) {
	testutil.Run(t, handleleak.Analyzer, "handleleak/...")
}
