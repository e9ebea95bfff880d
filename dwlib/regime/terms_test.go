package regime

import (
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// The drive is a unit-variance AR(1), so RMS(D) = λ_D up to sampling error. With 8 trajectories,
// 8 channels and 482 samples after the delay window, and a correlation time (1+ρ)/(1−ρ) = 19,
// about 1600 effective samples: the relative standard error of the RMS is about 1/sqrt(2·1600)
// ≈ 1.8%; the tolerance is 6%. The autonomous term is of the order of the paper's (0.04 to 0.24).
func TestTermMagnitudesDriveRMSIsLambda(t *testing.T) {
	for _, gen := range []string{"", "authors"} {
		for _, lambda := range []float64{.0315, .34} {
			ds, err := data.Load("driven-mg", data.Options{NumTraj: 10, Length: 512, DriveScale: lambda, Generator: gen, NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			c := data.DefaultDrivenMGConfig()
			c.DriveScale = lambda
			terms, err := TermMagnitudes(RawTrain(ds), c)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(terms.RMSD/lambda-1) > 0.06 {
				t.Errorf("%q λ = %v: RMS(D) = %v", gen, lambda, terms.RMSD)
			}
			if !(terms.RMSA > 0.02 && terms.RMSA < 0.4) || math.Abs(terms.Ratio-terms.RMSD/terms.RMSA) > 1e-12 {
				t.Errorf("%q λ = %v: RMS(A) = %v, ratio %v", gen, lambda, terms.RMSA, terms.Ratio)
			}
			if want := len(ds.Train) * (512 - 30) * 8; terms.Samples != want {
				t.Errorf("%d samples, want %d (the first delay window excluded)", terms.Samples, want)
			}
		}
	}
}

// A(t) + D(t) is the right-hand side: on the finely integrated project generator it must match the
// centred finite difference of the sampled trajectory (x(t+1) − x(t−1))/2 to within the
// discretisation of that difference, far below RMS(A).
func TestTermsMatchTheTrajectorySlope(t *testing.T) {
	lambda := .08
	ds, err := data.Load("driven-mg", data.Options{NumTraj: 5, Length: 300, DriveScale: lambda, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	c := data.DefaultDrivenMGConfig()
	raw := RawTrain(ds)
	terms, err := TermMagnitudes(raw, c)
	if err != nil {
		t.Fatal(err)
	}
	var se float64
	n := 0
	for _, s := range raw {
		for t := 31; t < len(s.X)-1; t++ {
			for ch := range s.X[t] {
				xd := s.X[t-30][ch]
				a := c.Beta*xd/(1+math.Pow(xd, 10)) - c.Gamma*s.X[t][ch]
				// The drive is piecewise constant: average the two intervals around t.
				d := lambda * (s.Drive[t-1][ch] + s.Drive[t][ch]) / 2
				slope := (s.X[t+1][ch] - s.X[t-1][ch]) / 2
				se += (a + d - slope) * (a + d - slope)
				n++
			}
		}
	}
	if rms := math.Sqrt(se / float64(n)); rms > 0.25*terms.RMSA {
		t.Errorf("A + D differs from the slope by RMS %v (RMS(A) = %v)", rms, terms.RMSA)
	}
}
