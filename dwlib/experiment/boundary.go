package experiment

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// BoundaryRow is one condition of the paper's driven Mackey–Glass boundary (App. "Controlled
// Test of Strong Observed Drive"): Full BPTT and Internal-DW on one testbed, scored on the seeds
// where both have finished. Weak drive is autonomous Mackey–Glass, strong drive the same delay
// dynamics with the observed AR(1) drive at scale .08.
type BoundaryRow struct {
	Condition, Testbed, Profile string
	Seeds                       []uint64
	Full, DW                    []float64 // test rel-L2 per seed, in Seeds order
	// Paired is DW − Full over the seeds (N < 2: none; see eval.Paired).
	Paired *eval.PairedDiff
	// PaperFull and PaperDW are the paper's means ± sd (three seeds, Mamba-128).
	PaperFull, PaperDW PaperScore
}

// Change is DW's mean relative to Full's mean in percent (the paper's "DW vs. Full" column).
func (r BoundaryRow) Change() float64 {
	f, _ := eval.MeanSD(r.Full)
	d, _ := eval.MeanSD(r.DW)
	return eval.PercentChange(d, f)
}

// DriveBoundary reads the finished Full and DW runs of profile on the two conditions for the
// given seeds (run directories, then the archive, as opt says) and returns the weak- and the
// strong-drive row. A seed where either method has not finished is left out of its row; a row
// with no seed at all has empty slices.
func DriveBoundary(opt Options, profile string, seeds []uint64) ([]BoundaryRow, error) {
	rows := []BoundaryRow{
		{Condition: "weak drive (autonomous)", Testbed: "mackey-glass"},
		{Condition: "strong observed drive", Testbed: "driven-mg"},
	}
	for i := range rows {
		r := &rows[i]
		r.Profile = profile
		r.PaperFull, r.PaperDW = PaperRelL2[r.Testbed]["full"], PaperRelL2[r.Testbed]["dw"]
		for _, s := range seeds {
			full, err := FinishedRun(opt, profile, r.Testbed, "full", s)
			if err != nil {
				return nil, fmt.Errorf("experiment: DriveBoundary: %w", err)
			}
			dw, err := FinishedRun(opt, profile, r.Testbed, "dw", s)
			if err != nil {
				return nil, fmt.Errorf("experiment: DriveBoundary: %w", err)
			}
			if full == nil || dw == nil {
				continue
			}
			r.Seeds = append(r.Seeds, s)
			r.Full, r.DW = append(r.Full, full.Test.RelL2), append(r.DW, dw.Test.RelL2)
		}
		if len(r.Seeds) >= 2 {
			p, err := eval.Paired(r.DW, r.Full)
			if err != nil {
				return nil, fmt.Errorf("experiment: DriveBoundary: %s: %w", r.Testbed, err)
			}
			r.Paired = &p
		}
	}
	return rows, nil
}
