package main

import (
	"strings"
	"testing"
)

func TestRegimeFile(t *testing.T) {
	for _, tc := range []struct {
		testbed, label, want, err string
	}{
		{"mackey-glass", "", "regime-mackey-glass.md", ""},
		{"mackey-glass", "noise-quarter", "regime-mackey-glass-noise-quarter.md", ""},
		{"narma5", "a_1", "regime-narma5-a_1.md", ""},
		{"mackey-glass", "../x", "", `-label "../x"`},
		{"mackey-glass", "A", "", "use only a-z"},
	} {
		got, err := regimeFile(tc.testbed, tc.label)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("label %q: %q, %v; want an error containing %q", tc.label, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("label %q: %q, %v; want %q", tc.label, got, err, tc.want)
		}
	}
}
