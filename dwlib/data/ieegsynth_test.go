package data

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func smallIEEG() IEEGSynthConfig {
	c := DefaultIEEGSynthConfig()
	c.Channels, c.Recordings, c.Length = 12, 2, 6144
	return c
}

// TestIEEGSynthEquations regresses the generated channels on the known
// factors and the lagged stimulus: the fit must recover the mixing L and the
// response B, and leave the channel noise variance; the factors must follow
// their AR(2) with unit variance.
func TestIEEGSynthEquations(t *testing.T) {
	c := smallIEEG()
	recs, err := GenerateIEEGRecordings(c)
	if err != nil {
		t.Fatal(err)
	}
	m, u := c.Model(), c.Stimulus()
	var Z, Y [][]float64
	for _, r := range recs {
		for tt := range c.Length {
			Z = append(Z, append(append([]float64(nil), r.Factors[tt]...), u[tt]...))
			Y = append(Y, r.X[tt])
		}
	}
	B, resVar := leastSquares(Z, Y)
	for ch := range c.Channels {
		for j := range c.Factors {
			if d := math.Abs(B[j][ch] - m.Mixing[ch][j]); d > .02 {
				t.Errorf("channel %d factor %d: recovered mixing %.4f, true %.4f", ch, j, B[j][ch], m.Mixing[ch][j])
			}
		}
		for j := range c.Features {
			if d := math.Abs(B[c.Factors+j][ch] - m.Response[ch][j]); d > .02 {
				t.Errorf("channel %d feature %d: recovered response %.4f, true %.4f", ch, j, B[c.Factors+j][ch], m.Response[ch][j])
			}
		}
		if v := resVar[ch]; math.Abs(v-c.NoiseStd*c.NoiseStd) > .02 {
			t.Errorf("channel %d: residual variance %.4f, want NoiseStd^2 = %.4f", ch, v, c.NoiseStd*c.NoiseStd)
		}
	}
	for j := range c.Factors {
		var Zf, Yf [][]float64
		sum2, n := 0.0, 0
		for _, r := range recs {
			for tt := 2; tt < c.Length; tt++ {
				Zf = append(Zf, []float64{r.Factors[tt-1][j], r.Factors[tt-2][j]})
				Yf = append(Yf, []float64{r.Factors[tt][j]})
				sum2 += r.Factors[tt][j] * r.Factors[tt][j]
				n++
			}
		}
		a, res := leastSquares(Zf, Yf)
		if math.Abs(a[0][0]-m.A1[j]) > .03 || math.Abs(a[1][0]-m.A2[j]) > .03 {
			t.Errorf("factor %d: AR(2) fit (%.4f, %.4f), true (%.4f, %.4f)", j, a[0][0], a[1][0], m.A1[j], m.A2[j])
		}
		if s2 := m.InnovStd[j] * m.InnovStd[j]; math.Abs(res[0]/s2-1) > .05 {
			t.Errorf("factor %d: innovation variance %.5f, true %.5f", j, res[0], s2)
		}
		// Near-unit-root factors: the sample variance of a few recordings is loose.
		if v := sum2 / float64(n); v < .5 || v > 1.6 {
			t.Errorf("factor %d: sample variance %.3f, stationary 1", j, v)
		}
	}
	// The movie is the same in every recording; the latent draws are not.
	for tt := range c.Length {
		for j := range c.Features {
			if recs[0].Drive[tt][j] != recs[1].Drive[tt][j] || recs[0].Drive[tt][j] != u[tt+1][j] {
				t.Fatalf("step %d feature %d: drive differs between recordings or from u_t", tt, j)
			}
		}
	}
	if recs[0].Factors[100][0] == recs[1].Factors[100][0] {
		t.Error("recordings share their latent factors")
	}
}

// TestIEEGTrueResidualCov checks the closed form against the residuals of
// the oracle predictor computed on generated recordings.
func TestIEEGTrueResidualCov(t *testing.T) {
	c := smallIEEG()
	c.Channels, c.Length, c.Recordings = 5, 20000, 2
	const K = 6
	recs, err := GenerateIEEGRecordings(c)
	if err != nil {
		t.Fatal(err)
	}
	m, u := c.Model(), c.Stimulus()
	C, F := c.Channels, c.Factors
	n := K * C
	emp := make([]float64, n*n)
	count := 0
	e := make([]float64, n)
	for _, r := range recs {
		for o := 2; o+K <= c.Length; o++ {
			f1, f2 := append([]float64(nil), r.Factors[o-1]...), append([]float64(nil), r.Factors[o-2]...)
			for k := range K {
				for j := range F {
					f1[j], f2[j] = m.A1[j]*f1[j]+m.A2[j]*f2[j], f1[j]
				}
				tt := o + k
				for ch := range C {
					pred := 0.0
					for j := range F {
						pred += m.Mixing[ch][j] * f1[j]
					}
					for j, b := range m.Response[ch] {
						pred += b * u[tt][j]
					}
					e[k*C+ch] = r.X[tt][ch] - pred
				}
			}
			addOuter(emp, e)
			count++
		}
	}
	checkOracleCov(t, emp, count, m, K, .08)
	want, err := m.TrueResidualCov(K, nil)
	if err != nil {
		t.Fatal(err)
	}
	scale := make([]float64, C)
	for i := range scale {
		scale[i] = 2
	}
	scaled, _ := m.TrueResidualCov(K, scale)
	if math.Abs(scaled[0]*4-want[0]) > 1e-12 {
		t.Errorf("scaled covariance %v, want %v/4", scaled[0], want[0])
	}
	if _, err := m.TrueResidualCov(0, nil); err == nil {
		t.Error("K = 0 accepted")
	}
}

// TestMovieSplitExclusion checks the 70/15/15 movie-time boundaries, the
// exclusion gap before each one and the chunk geometry at the paper's sizes.
func TestMovieSplitExclusion(t *testing.T) {
	for _, tc := range []struct{ T, chunk, gap, train, val, test int }{
		{12288, 1024, 256, 8, 1, 1},
		{4096, 341, 85, 8, 1, 1},
		{100000, 1024, 256, 68, 14, 14},
	} {
		p, err := MovieSplit(tc.T, tc.chunk, tc.gap)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if len(p.Train) != tc.train || len(p.Val) != tc.val || len(p.Test) != tc.test {
			t.Errorf("%+v: %d/%d/%d chunks", tc, len(p.Train), len(p.Val), len(p.Test))
		}
		last := func(s []int) int { return s[len(s)-1] + tc.chunk }
		if last(p.Train) > p.Bounds[0]-tc.gap || p.Val[0] < p.Bounds[0] || last(p.Val) > p.Bounds[1]-tc.gap || p.Test[0] < p.Bounds[1] || last(p.Test) > tc.T {
			t.Errorf("%+v: a chunk crosses an exclusion: %+v", tc, p)
		}
		if p.Val[0]-last(p.Train) < tc.gap || p.Test[0]-last(p.Val) < tc.gap {
			t.Errorf("%+v: fewer than %d steps between splits", tc, tc.gap)
		}
	}
	if _, err := MovieSplit(1000, 1024, 256); err == nil {
		t.Error("a movie shorter than a chunk was split")
	}
}

// TestLoadIEEGSynth checks the registered testbed: shapes, training-only
// standardisation, determinism, participants and channel counts, caching.
func TestLoadIEEGSynth(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Length: 4096, NumTraj: 2, Channels: 12, CacheDir: dir}
	d, err := Load("ieeg-synth", opt)
	if err != nil {
		t.Fatal(err)
	}
	if d.StateDim != 12 || d.DriveDim != 4 || len(d.Train) != 16 || len(d.Val) != 2 || len(d.Test) != 2 || d.Train[0].Len() != 341 {
		t.Fatalf("dims %d/%d, units %d/%d/%d of %d steps", d.StateDim, d.DriveDim, len(d.Train), len(d.Val), len(d.Test), d.Train[0].Len())
	}
	for ch := range d.StateDim {
		s, s2, n := 0.0, 0.0, 0
		for _, u := range d.Train {
			for _, r := range u.X {
				s += r[ch]
				s2 += r[ch] * r[ch]
				n++
			}
		}
		if mean, v := s/float64(n), s2/float64(n); math.Abs(mean) > 1e-9 || math.Abs(v-1) > 1e-9 {
			t.Errorf("channel %d: training mean %g, variance %g, want 0 and 1", ch, mean, v)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "ieeg-synth-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	st, _ := os.Stat(files[0])
	again, err := Load("ieeg-synth", opt)
	if err != nil {
		t.Fatal(err)
	}
	st2, _ := os.Stat(files[0])
	if !st.ModTime().Equal(st2.ModTime()) {
		t.Error("the cache file was rewritten on a hit")
	}
	assertSameSeries(t, again.Train, d.Train)
	mem, err := Load("ieeg-synth", Options{Length: 4096, NumTraj: 2, Channels: 12, NoCache: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	assertSameSeries(t, mem.Test, d.Test) // the movie-time split ignores the experimental seed
	other, err := Load("ieeg-synth", Options{Length: 4096, NumTraj: 2, Channels: 12, NoCache: true, Participant: 1})
	if err != nil {
		t.Fatal(err)
	}
	if other.Train[0].X[0][0] == d.Train[0].X[0][0] {
		t.Error("participant 1 has participant 0's data")
	}
	wide, err := Load("ieeg-synth", Options{Length: 4096, NumTraj: 1, Channels: 80, NoCache: true})
	if err != nil || wide.StateDim != 80 {
		t.Fatalf("80 channels: %v", err)
	}
	for _, bad := range []Options{{Length: 40, NoCache: true}, {Channels: -1, NoCache: true}, {Generator: "authors", NoCache: true}} {
		if _, err := Load("ieeg-synth", bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// Channels and Participant select data only where they mean something.
func TestChannelsOptionScope(t *testing.T) {
	for _, name := range []string{"mackey-glass", "narma5", "known-snr"} {
		for _, opt := range []Options{{Channels: 80}, {Participant: 1}} {
			opt.NoCache = true
			if _, err := Load(name, opt); err == nil || !strings.Contains(err.Error(), "apply to ieeg-synth") {
				t.Errorf("%s %+v: %v", name, opt, err)
			}
		}
	}
}
