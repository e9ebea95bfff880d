package experiment

import (
	"runtime/debug"
	"strings"
)

// buildID names the code that trained a run: the commit of this module ("+dirty" when its tree
// had uncommitted changes, "unknown commit" where the binary carries no VCS stamp, as in
// go test or go run) and the GoMLX and compute modules it was built with. A float32 run's
// training is chaotic at the last bit, so two builds that sum in another order give different
// numbers for one configuration and seed (environment.md, "What is guaranteed"); the result
// records which build it came from.
func buildID() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return formatBuild(bi)
}

// formatBuild is buildID on given build information.
func formatBuild(bi *debug.BuildInfo) string {
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	parts := []string{"unknown commit"}
	if rev != "" {
		parts[0] = rev[:min(12, len(rev))]
		if dirty {
			parts[0] += "+dirty"
		}
	}
	for _, d := range bi.Deps {
		switch d.Path {
		case "github.com/gomlx/gomlx", "github.com/gomlx/compute":
			parts = append(parts, d.Path[strings.LastIndex(d.Path, "/")+1:]+" "+d.Version)
		}
	}
	parts = append(parts, bi.GoVersion)
	return strings.Join(parts, ", ")
}
