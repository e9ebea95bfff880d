package knownsnr

import "github.com/internal-dw/dwgo/dwlib/eval"

// Paper's reported values (Section 5.1): normalised route risk of each setting, and K*_grad.
var (
	PaperRouteRisk = map[string]float64{SettingFull: 1, SettingDW: .52, SettingMisplaced: .65, SettingOracle: .35}
	PaperKStarGrad = 24
)

// RiskStat is one setting's route-risk ratio over checkpoints: mean and sample standard deviation
// (the paper: "mean and sample standard deviation of the three seed-level ratios").
type RiskStat struct {
	Setting  string
	Ratios   []float64
	Mean, SD float64
	Paper    float64
}

// SummarizeRisk returns one RiskStat per setting, in Settings order.
func SummarizeRisk(rs []*Risk) []RiskStat {
	out := make([]RiskStat, 0, len(Settings))
	for _, s := range Settings {
		st := RiskStat{Setting: s, Paper: PaperRouteRisk[s]}
		for _, r := range rs {
			st.Ratios = append(st.Ratios, r.Ratio[s])
		}
		st.Mean, st.SD = eval.MeanSD(st.Ratios)
		out = append(out, st)
	}
	return out
}
