package regime

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// Terms are the magnitudes of the two parts of the driven Mackey–Glass right-hand side,
//
//	A(t) = β x(t−τ) / (1 + x(t−τ)^n) − γ x(t)   (autonomous),   D(t) = λ_D u(t)   (drive),
//
// as root mean squares pooled over raw (unnormalised) trajectories, sample times and channels,
// excluding each trajectory's first delay window (where x(t−τ) is not a sample). Their ratio says
// how strongly the drive pushes the state compared with the system's own dynamics: the sweep's
// x axis in physical terms.
type Terms struct {
	RMSA, RMSD, Ratio float64
	Samples           int // pooled (time, channel) samples
}

// TermMagnitudes computes Terms over raw trajectories sampled at unit time, with x(t−τ) the sample
// τ steps earlier (τ must be a whole number of samples) and u(t) = Drive[t], the drive row paired
// with X[t]. For unnormalised data use ds.Norm.Invert on each unit first.
func TermMagnitudes(raw []data.Series, c data.MGConfig) (Terms, error) {
	lag := int(math.Round(c.Tau))
	if math.Abs(c.Tau-float64(lag)) > 1e-9 || lag < 1 {
		return Terms{}, fmt.Errorf("regime: terms: Tau %v is not a whole number of unit samples", c.Tau)
	}
	var sa, sd float64
	n := 0
	for _, s := range raw {
		if c.DriveScale != 0 && s.Drive == nil {
			return Terms{}, fmt.Errorf("regime: terms: a driven configuration (λ_D = %v) needs the drive", c.DriveScale)
		}
		for t := lag; t < len(s.X); t++ {
			for ch, x := range s.X[t] {
				xd := s.X[t-lag][ch]
				a := c.Beta*xd/(1+math.Pow(xd, float64(c.Power))) - c.Gamma*x
				sa += a * a
				if s.Drive != nil {
					d := c.DriveScale * s.Drive[t][ch]
					sd += d * d
				}
				n++
			}
		}
	}
	if n == 0 {
		return Terms{}, fmt.Errorf("regime: terms: no sample after the first delay window (τ = %d)", lag)
	}
	t := Terms{RMSA: math.Sqrt(sa / float64(n)), RMSD: math.Sqrt(sd / float64(n)), Samples: n}
	if t.RMSA > 0 {
		t.Ratio = t.RMSD / t.RMSA
	}
	return t, nil
}

// RawTrain returns the dataset's training units on their raw scale.
func RawTrain(ds *data.Dataset) []data.Series {
	out := make([]data.Series, len(ds.Train))
	for i, s := range ds.Train {
		out[i] = ds.Norm.Invert(s)
	}
	return out
}
