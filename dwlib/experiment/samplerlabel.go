package experiment

import (
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/noise"
)

// Variant names the method of a run as tables group it: the method, except that a DW run whose
// noise sampler is not DW-Generic's is "dw-<sampler>" (DW-Prior with the ridge-AR bank:
// "dw-prior-ar"). The paper's DW rows are DW-Generic on the sequence testbeds, so plain "dw" keeps
// meaning what it meant in every table written before samplers could vary, and a DW-Prior run is
// never averaged with a DW-Generic one.
func Variant(cfg RunConfig) string {
	m := cfg.Train.Method
	if m != "dw" || cfg.Train.Sampler == "" || cfg.Train.Sampler == noise.GenericName {
		return m
	}
	return m + "-" + cfg.Train.Sampler
}

// isDWVariant says whether a Variant label is DW with some sampler.
func isDWVariant(v string) bool { return v == "dw" || strings.HasPrefix(v, "dw-") }

// orderVariants sorts labels as Methods orders methods, each DW variant right after plain DW in
// name order.
func orderVariants(vs []string) []string {
	rank := func(v string) int {
		if isDWVariant(v) {
			return slices.Index(Methods(), "dw")
		}
		return slices.Index(Methods(), v)
	}
	out := slices.Clone(vs)
	slices.SortFunc(out, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		if a == "dw" {
			return -1
		}
		if b == "dw" {
			return 1
		}
		return strings.Compare(a, b)
	})
	return out
}
