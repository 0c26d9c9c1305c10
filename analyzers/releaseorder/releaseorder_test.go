package releaseorder_test

import (
	"testing"

	"github.com/lifetimevet/lifetimevet/analyzers/releaseorder"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func Test(t *testing.T) {
	testutil.Run(t, releaseorder.Analyzer, "releaseorder/...")
}
