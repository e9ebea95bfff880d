package main

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestEmptyListElementRefused (issue 40, minor): a list flag with an empty element ("1,,2") is a
// usage error naming the flag and the element, not a shorter list run without a word.
func TestEmptyListElementRefused(t *testing.T) {
	runs := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "full", "-seeds", "1,,2"}, `-seeds "1,,2": element 2 of the list is empty`},
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "full", "-seed", "1,"}, `-seeds "1,": element 2`},
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass,", "-methods", "full"}, `-testbeds "mackey-glass,": element 2`},
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", ",full"}, `-methods ",full": element 1`},
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "full", "-K", "4,,8"}, `-K "4,,8": element 2`},
		{[]string{"train", "-profile", "quick", "-testbed", "mackey-glass", "-method", "full", "-seed", "0,,1"}, `-seeds "0,,1": element 2`},
		{[]string{"table", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "full", "-seeds", "0, ,1"}, `element 2 of the list is empty`},
	} {
		_, err := dw(t, append(tc.args, "-runs", runs)...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
			t.Errorf("dw %v: %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
	if e, _ := os.ReadDir(runs); len(e) > 0 {
		t.Errorf("refused commands wrote %d entries", len(e))
	}
}
