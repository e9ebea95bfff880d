package experiment

import "sync/atomic"

// Runs in progress in this process, and those of them building their graphs. Building and
// compiling (Session.Compile, before a run's first step) happens inside GoMLX and cannot stop at
// a minibatch boundary as training does; on the pure-Go backend a large configuration spends
// minutes there. Nothing has been trained or written during it, so a command line may quit at once
// when interrupted while every run is in that stretch (cmd/dw does).
var runsActive, runsBuilding atomic.Int64

// BuildingOnly reports whether at least one run is in progress and every one of them is building
// its graphs: an interruption then loses nothing but the build.
func BuildingOnly() bool {
	b := runsBuilding.Load()
	return b > 0 && b >= runsActive.Load()
}
