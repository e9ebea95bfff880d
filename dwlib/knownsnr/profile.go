package knownsnr

import "fmt"

// ForProfile returns the study's protocol for an experiment profile: "paper" is the paper's
// (PaperSplit, PaperRisk); "standard" keeps the trajectories, starts, minibatches and schedule
// but uses 16 innovation draws instead of 64 and two replicates instead of four (about fifteen
// minutes on one CPU core for a Mamba-24); "quick" is a smoke test for the quick profile's tiny
// data (2 test trajectories).
func ForProfile(profile string) (SplitConfig, RiskConfig, error) {
	switch profile {
	case "paper":
		return PaperSplit(), PaperRisk(), nil
	case "standard":
		s := PaperSplit()
		s.Draws, s.Replicates = 16, 2
		r := PaperRisk()
		r.OracleDraws, r.EvalDraws = 16, 16
		return s, r, nil
	case "quick":
		return SplitConfig{Trajectories: 2, Draws: 3, Replicates: 1, Seed: 1},
			RiskConfig{Passes: 2, StartsPerUnit: 2, BatchSize: 4, Warmup: 2, Period: 2, OracleDraws: 2, EvalDraws: 2, MaxEval: 3, Seed: 1}, nil
	}
	return SplitConfig{}, RiskConfig{}, fmt.Errorf("knownsnr: unknown profile %q (quick, standard, paper)", profile)
}

// AuthorsRiskFor returns the released code's route-risk protocol (AuthorsRisk) at a profile's
// size: "paper" as released; "standard" with 16 draws (as ForProfile's); "quick" a smoke test.
func AuthorsRiskFor(profile string) (RiskConfig, error) {
	r := AuthorsRisk()
	switch profile {
	case "paper":
	case "standard":
		r.OracleDraws, r.EvalDraws = 16, 16
	case "quick":
		r.BatchSize, r.Warmup, r.Period, r.OracleDraws, r.EvalDraws, r.MaxEval = 2, 2, 2, 2, 2, 3
	default:
		return RiskConfig{}, fmt.Errorf("knownsnr: unknown profile %q (quick, standard, paper)", profile)
	}
	return r, nil
}
