package appdiag

import (
	"fmt"
	"math"
	"strings"
)

// AttributionRow is one measured checkpoint of a table of Attribution.
type AttributionRow struct {
	Method string
	Seed   uint64
	At     Checkpoint
	A      *Attribution
	// Logged is the run's own tr R̂/tr T̂ when training ended (experiment.Result.NoiseShare); NaN
	// where there is none (Full, or the initial parameters).
	Logged float64
}

// AttributionMarkdown writes rows as a markdown table with a legend: the pooled shares of the
// total probe's route energy (Pooled) that each probe noise carries, the factors they split into,
// and the spread of one template's share.
func AttributionMarkdown(title string, rows []AttributionRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", title)
	b.WriteString("| run | parameters | own, centered | another's pattern at own size | size pairing | sampler draw (expected) | routes above 1 | one template q10 / q50 / q90 | logged at the end |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	num := func(x float64) string {
		if math.IsNaN(x) {
			return "–"
		}
		return fmt.Sprintf("%.3f", x)
	}
	for _, r := range rows {
		a := r.A
		tr := a.TemplateRatios()
		fmt.Fprintf(&b, "| %s s%d | %s | %s | %s | %s | **%s** | %.0f%% | %s / %s / %s | %s |\n",
			r.Method, r.Seed, r.At, num(a.Pooled(a.Centered)), num(a.Pooled(a.Rescaled)),
			num(sum(a.Foreign)/sum(a.Rescaled)), num(a.Pooled(a.ForeignCentered)), 100*a.FractionAbove(a.ForeignCentered),
			num(Quantile(tr, 0.1)), num(Median(tr)), num(Quantile(tr, 0.9)), num(r.Logged))
	}
	b.WriteString(`
Each column is the share Σ tr(·)/Σ tr T of the total probe's route energy (every route of every rollout step and layer, open routes, summed over the windows) carried by a probe noise built from the residuals e = x* − x̂ of the same windows at the same parameters. *Own, centered*: each window's own residual minus the batch mean. *Another's pattern at own size*: another window's residual rescaled to this window's norm. *Size pairing*: another window's residual as it is, divided by the previous column (the two multiply to another window's residual as it is). *Sampler draw (expected)*: another window's centered residual, what DW-Generic probes with; above 1 the sampler sees more noise than there is route energy in all, and the solve closes the gains. *Routes above 1*: the routes where it does. *One template*: the spread of that share over single templates, since the sampler probes a whole minibatch with one. *Logged at the end*: the run's own EMA of R̂ over T̂ when training stopped.
`)
	return b.String()
}
