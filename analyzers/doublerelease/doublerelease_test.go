package doublerelease_test

import (
	"testing"

	"github.com/lifetimevet/lifetimevet/analyzers/doublerelease"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func TestDoubleRelease(t *testing.T) {
	testutil.Run(t, doublerelease.Analyzer, "doublerelease/...")
}
