package data

import (
	"math"
	"testing"
)

// TestFMRISynthEquations checks the defining equations: the mean over
// subjects of the offset-removed data is the shared response (up to the
// averaged deviations and noise), each subject's deviation follows its
// parcel's AR(1) with variance DevStd², and what remains after offset,
// response and deviation is white noise of variance NoiseStd².
func TestFMRISynthEquations(t *testing.T) {
	c := DefaultFMRISynthConfig()
	c.Subjects, c.Parcels, c.Length = 200, 6, 400
	subs, err := GenerateFMRISubjects(c)
	if err != nil {
		t.Fatal(err)
	}
	m := c.Model()
	r := c.SharedResponse(m, c.Stimulus())
	if s := sum(m.Kernel); math.Abs(s-1) > 1e-12 {
		t.Errorf("kernel sums to %v", s)
	}
	for p := range c.Parcels {
		// Shared response: the subject mean of x - μ - d is r + mean noise.
		maxErr := 0.0
		for tt := range c.Length {
			v := 0.0
			for _, s := range subs {
				v += s.X[tt][p] - s.Offset[p] - s.Deviation[tt][p]
			}
			maxErr = math.Max(maxErr, math.Abs(v/float64(len(subs))-r[tt][p]))
		}
		if lim := 5 * c.NoiseStd / math.Sqrt(float64(len(subs))); maxErr > lim {
			t.Errorf("parcel %d: subject mean departs from the shared response by %.4f > %.4f", p, maxErr, lim)
		}
		var Z, Y [][]float64
		noise2, dev2, n := 0.0, 0.0, 0
		for _, s := range subs {
			for tt := range c.Length {
				e := s.X[tt][p] - s.Offset[p] - r[tt][p] - s.Deviation[tt][p]
				noise2 += e * e
				dev2 += s.Deviation[tt][p] * s.Deviation[tt][p]
				n++
				if tt > 0 {
					Z = append(Z, []float64{s.Deviation[tt-1][p]})
					Y = append(Y, []float64{s.Deviation[tt][p]})
				}
			}
		}
		phi, res := leastSquares(Z, Y)
		if math.Abs(phi[0][0]-m.Phi[p]) > .01 {
			t.Errorf("parcel %d: deviation AR(1) %.4f, true %.4f", p, phi[0][0], m.Phi[p])
		}
		if want := c.DevStd * c.DevStd * (1 - m.Phi[p]*m.Phi[p]); math.Abs(res[0]/want-1) > .03 {
			t.Errorf("parcel %d: innovation variance %.4f, true %.4f", p, res[0], want)
		}
		if v := dev2 / float64(n); math.Abs(v/(c.DevStd*c.DevStd)-1) > .05 {
			t.Errorf("parcel %d: deviation variance %.4f, true %.4f", p, v, c.DevStd*c.DevStd)
		}
		if v := noise2 / float64(n); math.Abs(v/(c.NoiseStd*c.NoiseStd)-1) > .03 {
			t.Errorf("parcel %d: noise variance %.4f, true %.4f", p, v, c.NoiseStd*c.NoiseStd)
		}
	}
	// The response is locked to the stimulus: Drive[t] = s_t is the same for every subject.
	if subs[0].Drive[10][0] != subs[1].Drive[10][0] {
		t.Error("subjects see different stimuli")
	}
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// TestFMRITrueResidualCov checks the closed form against the oracle's
// residuals μ_i + r + φ^k d_{i,o-1} on generated subjects.
func TestFMRITrueResidualCov(t *testing.T) {
	c := DefaultFMRISynthConfig()
	c.Subjects, c.Parcels, c.Length = 60, 3, 600
	const K = 5
	subs, err := GenerateFMRISubjects(c)
	if err != nil {
		t.Fatal(err)
	}
	m := c.Model()
	r := c.SharedResponse(m, c.Stimulus())
	P := c.Parcels
	n := K * P
	emp := make([]float64, n*n)
	e := make([]float64, n)
	count := 0
	for _, s := range subs {
		for o := 1; o+K <= c.Length; o++ {
			for k := range K {
				for p := range P {
					pred := s.Offset[p] + r[o+k][p] + math.Pow(m.Phi[p], float64(k+1))*s.Deviation[o-1][p]
					e[k*P+p] = s.X[o+k][p] - pred
				}
			}
			addOuter(emp, e)
			count++
		}
	}
	checkOracleCov(t, emp, count, m, K, .05)
}

// TestLoadFMRISynth checks the subject-level split (the paper's 111/24/24
// proportions), the subject flag and the option errors.
func TestLoadFMRISynth(t *testing.T) {
	d, err := Load("fmri-synth", Options{NoCache: true, NumTraj: 159, Length: 64, Channels: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Train) != 111 || len(d.Val) != 24 || len(d.Test) != 24 || !d.Subjects || d.StateDim != 4 || d.DriveDim != 4 {
		t.Fatalf("split %d/%d/%d, subjects %v, dims %d/%d", len(d.Train), len(d.Val), len(d.Test), d.Subjects, d.StateDim, d.DriveDim)
	}
	def, err := Load("fmri-synth", Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(def.Train) != 37 || len(def.Val) != 8 || len(def.Test) != 8 || def.Train[0].Len() != 512 || def.StateDim != 32 {
		t.Errorf("default: %d/%d/%d subjects of %d steps, %d parcels", len(def.Train), len(def.Val), len(def.Test), def.Train[0].Len(), def.StateDim)
	}
	seen := map[int]bool{}
	for _, idx := range [][]int{def.Split.Train, def.Split.Val, def.Split.Test} {
		for _, i := range idx {
			if seen[i] {
				t.Errorf("subject %d in two splits", i)
			}
			seen[i] = true
		}
	}
	again, _ := Load("fmri-synth", Options{NoCache: true})
	assertSameSeries(t, again.Val, def.Val)
	for _, bad := range []Options{{NumTraj: 2}, {Participant: 1}, {Channels: -3}} {
		bad.NoCache = true
		if _, err := Load("fmri-synth", bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
