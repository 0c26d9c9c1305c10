package lifetimedirective_test

import (
	"testing"

	"github.com/lifetimevet/lifetimevet/analyzers/lifetimedirective"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func TestDirectives(t *testing.T) {
	testutil.Run(t, lifetimedirective.Analyzer, "lifetimedirective/...")
}

// TestLongDirective: a directive echoed in a message is cut.
func TestLongDirective(t *testing.T) {
	testutil.Run(t, lifetimedirective.Analyzer, "lifetimedirective/longdirective")
}
