package experiment

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormatBuild(t *testing.T) {
	deps := []*debug.Module{{Path: "github.com/gomlx/gomlx", Version: "v0.28.16"}, {Path: "github.com/gomlx/compute", Version: "v0.1.14"},
		{Path: "gonum.org/v1/gonum", Version: "v0.16.0"}}
	for _, tc := range []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"clean", []debug.BuildSetting{{Key: "vcs.revision", Value: "a34d15c0123456789abcdef"}, {Key: "vcs.modified", Value: "false"}},
			"a34d15c01234, gomlx v0.28.16, compute v0.1.14, go1.27.3"},
		{"dirty", []debug.BuildSetting{{Key: "vcs.revision", Value: "a34d15c0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}},
			"a34d15c01234+dirty, gomlx v0.28.16, compute v0.1.14, go1.27.3"},
		{"no stamp", nil, "unknown commit, gomlx v0.28.16, compute v0.1.14, go1.27.3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := formatBuild(&debug.BuildInfo{GoVersion: "go1.27.3", Deps: deps, Settings: tc.settings})
			if got != tc.want {
				t.Errorf("formatBuild = %q, want %q", got, tc.want)
			}
		})
	}
	// The test binary itself links GoMLX, so its own build names it.
	if id := buildID(); !strings.Contains(id, "gomlx v") {
		t.Errorf("buildID() = %q, names no GoMLX version", id)
	}
}
