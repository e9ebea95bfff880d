package main

import (
	"errors"
	"strings"
	"testing"
)

// -sampler sets the DW noise sampler of the dw runs (prior-ar: DW-Prior for any series) and is
// refused for other methods and unknown names.
func TestSamplerFlag(t *testing.T) {
	out, err := dw(t, "config", "-profile", "quick", "-testbed", "mackey-glass", "-methods", "full,dw", "-sampler", "prior-ar")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, `"sampler": "prior-ar"`) != 1 || strings.Count(out, `"sampler": "generic"`) != 1 {
		t.Fatalf("the dw run (only) should get the prior-ar sampler:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"config", "-profile", "quick", "-testbed", "mackey-glass", "-method", "full", "-sampler", "prior-ar"}, "applies to -method dw only"},
		{[]string{"config", "-profile", "quick", "-testbed", "mackey-glass", "-method", "dw", "-sampler", "nope"}, `-sampler "nope": valid samplers are`},
	} {
		_, err := dw(t, tc.args...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
			t.Errorf("dw %v: %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}
