package regime

// PaperScores are one row of the paper's unclipped probe tables: long-horizon (k >= 8) Ψ_D and
// ΔΨ_H of the linear and of the nonlinear probe.
type PaperScores struct {
	LinearPsiD, LinearDelta, NonlinearPsiD, NonlinearDelta float64
}

// PaperRegimeValue is one row of Table "Unclipped predictive-regime probe values".
type PaperRegimeValue struct {
	Name string // the paper's label
	// Testbed is this project's testbed name ("" where the project does not have it).
	Testbed string
	PaperScores
}

// PaperRegimeValues is the paper's Table tab:predictive-regime-values, in its order.
var PaperRegimeValues = []PaperRegimeValue{
	{"Mackey–Glass", "mackey-glass", PaperScores{.000, .442, .000, .370}},
	{"NARMA-5", "narma5", PaperScores{.857, -.001, .283, -.001}},
	{"iEEG", "", PaperScores{-3.2823, .0770, -.1265, .0032}},
	{"Shear flow", "", PaperScores{.000, .859, .000, .544}},
	{"WeatherBench-2", "", PaperScores{.219, -.179, .232, .004}},
	{"ETTm1", "ettm1", PaperScores{-.341, .697, -.355, .110}},
	{"ETTm2", "ettm2", PaperScores{-.144, .963, -.019, .272}},
	{"Movie fMRI", "", PaperScores{.230, .039, .230, .016}},
}

// PaperFor returns the paper's row for one of this project's testbeds.
func PaperFor(testbed string) (PaperRegimeValue, bool) {
	for _, v := range PaperRegimeValues {
		if v.Testbed == testbed && testbed != "" {
			return v, true
		}
	}
	return PaperRegimeValue{}, false
}

// PaperSweepRow is one row of Table "Term magnitudes and probe scores across drive strengths in
// Driven MG".
type PaperSweepRow struct {
	Lambda, RMSA, RMSD, Ratio float64
	PaperScores
}

// PaperLambdas are the drive scales λ_D of the paper's sweep table.
var PaperLambdas = []float64{.0315, .05925, .08, .13, .34}

// PaperSweep is the paper's Table tab:driven-mg-term-scales.
var PaperSweep = []PaperSweepRow{
	{.0315, .0420, .0315, .75, PaperScores{.023, .802, .040, .522}},
	{.05925, .0591, .0592, 1.00, PaperScores{.144, .757, .135, .533}},
	{.08, .0724, .0799, 1.10, PaperScores{.339, .680, .283, .463}},
	{.13, .1039, .1299, 1.25, PaperScores{.645, .568, .504, .362}},
	{.34, .2424, .3398, 1.40, PaperScores{.930, .598, .710, .086}},
}
