package checkthendestroy_test

import (
	"testing"

	"github.com/lifetimevet/lifetimevet/analyzers/checkthendestroy"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func TestCheckThenDestroy(t *testing.T) {
	testutil.Run(t, checkthendestroy.Analyzer, "checkthendestroy/...")
}
