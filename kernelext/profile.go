package kernelext

import (
	"fmt"
	"os"
)

// ProfileEnv is the environment variable holding the run profile. It is set
// by scripts/run-notebooks.sh --profile and defaults to "quick" in the
// gonb-dwgo kernel.
const ProfileEnv = "DW_PROFILE"

// Run profiles: how much compute a notebook should spend.
const (
	Quick    = "quick"    // minutes: smoke-test sizes, for CI and editing.
	Standard = "standard" // tens of minutes: numbers close to the paper.
	Paper    = "paper"    // the sizes reported in the paper.
)

// Profile returns $DW_PROFILE, or Quick when unset. It panics on an unknown
// value: a typo must not silently run the quick profile for a paper figure.
func Profile() string {
	p := os.Getenv(ProfileEnv)
	switch p {
	case "":
		return Quick
	case Quick, Standard, Paper:
		return p
	}
	panic(fmt.Sprintf("kernelext: $%s=%q, want %q, %q or %q", ProfileEnv, p, Quick, Standard, Paper))
}

// ByProfile picks the value for the current Profile, e.g.
//
//	epochs := kernelext.ByProfile(5, 200, 2000)
func ByProfile[T any](quick, standard, paper T) T {
	switch Profile() {
	case Standard:
		return standard
	case Paper:
		return paper
	}
	return quick
}
