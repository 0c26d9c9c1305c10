package useafterrelease_test

import (
	"testing"

	"github.com/lifetimevet/lifetimevet/analyzers/useafterrelease"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func Test(t *testing.T) {
	testutil.Run(t, useafterrelease.Analyzer, "useafterrelease/...")
}
