package noise

import (
	"encoding/json"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"
)

const spC, spH, spW = 2, 8, 6

// plantedSpectrum is a normalised half-plane spectrum per channel: red for channel 0, blue-ish for
// channel 1.
func plantedSpectrum(t *testing.T) []float64 {
	t.Helper()
	s, err := NewSpectral(SpectralConfig{Channels: spC, Height: spH, Width: spW})
	if err != nil {
		t.Fatal(err)
	}
	wh := spW/2 + 1
	raw := make([]float64, spC*spH*wh)
	for c := range spC {
		for ky := range spH {
			for kx := range wh {
				my := float64(min(ky, spH-ky))
				k2 := my*my + float64(kx*kx)
				if c == 0 {
					raw[(c*spH+ky)*wh+kx] = 1 / (1 + k2)
				} else {
					raw[(c*spH+ky)*wh+kx] = 0.2 + k2/10
				}
			}
		}
	}
	return s.normalised(raw, 1)
}

// plantedResiduals returns n·K residual fields e = m + a ⊙ F⁻¹[√S F W] per horizon, with a
// coordinate-dependent mean m and scale a.
func plantedResiduals(rng *rand.Rand, spec []float64, n, K int) []float64 {
	p := newFFTPlan(spW, spH)
	HW, D, h := spH*spW, spC*spH*spW, spH*(spW/2+1)
	out := make([]float64, n*K*D)
	white, shaped := make([]float64, HW), make([]float64, HW)
	for i := range n {
		for k := range K {
			for c := range spC {
				for j := range white {
					white[j] = rng.NormFloat64()
				}
				p.filter(shaped, white, spec[c*h:(c+1)*h])
				for j, v := range shaped {
					d := c*HW + j
					m, a := 0.3*math.Sin(float64(d)), 1+0.5*math.Cos(float64(3*d+k))
					out[(i*K+k)*D+d] = m + a*v
				}
			}
		}
	}
	return out
}

func relErr(got, want []float64) float64 {
	num, den := 0.0, 0.0
	for i := range got {
		num += (got[i] - want[i]) * (got[i] - want[i])
		den += want[i] * want[i]
	}
	return math.Sqrt(num / den)
}

// trained returns a sampler fed 300 minibatches of planted residuals.
func trained(t *testing.T, spec []float64) *Spectral {
	t.Helper()
	s, err := NewSpectral(SpectralConfig{Channels: spC, Height: spH, Width: spW})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		if err := s.Stage(plantedResiduals(rng, spec, 16, 2), 16, 2, spC*spH*spW); err != nil {
			t.Fatal(err)
		}
		s.Commit()
	}
	return s
}

// TestSpectralRecoversAPlantedSpectrum: residuals that are stationary fields of a known spectrum,
// with a coordinate-dependent mean and scale, give that (normalised) spectrum per channel and
// horizon, and the mean and variance maps; a white spectrum would be far off.
func TestSpectralRecoversAPlantedSpectrum(t *testing.T) {
	spec := plantedSpectrum(t)
	s := trained(t, spec)
	if r := s.Ready(3); !r[0] || !r[1] || r[2] {
		t.Fatalf("Ready(3) = %v, want [true true false]", r)
	}
	white := make([]float64, len(spec))
	for i := range white {
		white[i] = 1
	}
	for k := range 2 {
		if e := relErr(s.cur.spec[k], spec); e > 0.12 {
			t.Errorf("horizon %d: spectrum off by %.3f (relative L2)", k, e)
		}
		if e := relErr(white, spec); e < 0.5 {
			t.Fatalf("the planted spectrum is too close to white (%.3f) for the test to mean anything", e)
		}
		D := spC * spH * spW
		wantMean, wantVar := make([]float64, D), make([]float64, D)
		gotVar := make([]float64, D)
		for d := range D {
			a := 1 + 0.5*math.Cos(float64(3*d+k))
			wantMean[d], wantVar[d] = 0.3*math.Sin(float64(d)), a*a
			gotVar[d] = s.cur.second[k][d] - s.cur.mean[k][d]*s.cur.mean[k][d]
		}
		if e := relErr(s.cur.mean[k], wantMean); e > 0.15 {
			t.Errorf("horizon %d: mean map off by %.3f", k, e)
		}
		if e := relErr(gotVar, wantVar); e > 0.15 {
			t.Errorf("horizon %d: variance map off by %.3f", k, e)
		}
	}
}

// TestSpectralDraws: draws are zero mean with the committed coordinatewise variance v + δ and,
// scaled back, the committed power spectrum per channel.
func TestSpectralDraws(t *testing.T) {
	s := trained(t, plantedSpectrum(t))
	const n, K = 3000, 2
	D, HW, h := spC*spH*spW, spH*spW, spH*(spW/2+1)
	eps, err := s.Sample(rand.New(rand.NewPCG(7, 8)), n, K, D)
	if err != nil {
		t.Fatal(err)
	}
	for k := range K {
		sc := s.scale(k)
		worstMean, varErr := 0.0, 0.0
		pow := make([]float64, spC*h)
		z := make([]float64, D)
		for d := range D {
			m, v := 0.0, 0.0
			for i := range n {
				x := eps[(i*K+k)*D+d]
				m += x
				v += x * x
			}
			m, v = m/n, v/n
			worstMean = max(worstMean, math.Abs(m)/sc[d])
			varErr = max(varErr, math.Abs(v/(sc[d]*sc[d])-1))
		}
		for i := range n {
			for d := range D {
				z[d] = eps[(i*K+k)*D+d] / sc[d]
			}
			for c := range spC {
				s.plan.addPower(pow[c*h:(c+1)*h], z[c*HW:(c+1)*HW])
			}
		}
		if worstMean > 5/math.Sqrt(n) {
			t.Errorf("horizon %d: a coordinate's mean is %.3g standard deviations from 0", k, worstMean)
		}
		if varErr > 0.12 {
			t.Errorf("horizon %d: a coordinate's variance is off by %.3f (relative)", k, varErr)
		}
		for i := range pow {
			pow[i] /= n
		}
		if e := relErr(pow, s.cur.spec[k]); e > 0.08 {
			t.Errorf("horizon %d: the draws' spectrum is off the committed one by %.3f", k, e)
		}
	}
}

// TestSpectralUsesPreviousMoments: a minibatch is standardised with the moments committed before
// it, never its own: residuals shifted by a constant after a zero-mean minibatch put nearly all of
// the spectrum's power at DC (standardised with their own mean, the shift would vanish).
func TestSpectralUsesPreviousMoments(t *testing.T) {
	s, err := NewSpectral(SpectralConfig{Channels: 1, Height: 4, Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	batch := func(shift float64) []float64 {
		e := make([]float64, 8*16)
		for i := range e {
			e[i] = shift + rng.NormFloat64()
		}
		return e
	}
	if err := s.Stage(batch(0), 8, 1, 16); err != nil {
		t.Fatal(err)
	}
	s.Commit()
	if s.Ready(1)[0] {
		t.Fatal("ready after one minibatch: the spectrum needs committed moments first")
	}
	if err := s.Stage(batch(10), 8, 1, 16); err != nil {
		t.Fatal(err)
	}
	s.Commit()
	spec := s.cur.spec[0]
	total := 0.0
	for j, v := range spec {
		total += columnWeight(j%3, 4) * v
	}
	if dc := spec[0] / total; dc < 0.9 {
		t.Errorf("DC share of the spectrum %.3f, want > 0.9 (the shift standardised by the previous mean)", dc)
	}
}

// TestSpectralPowerIsTheDefinition: addPower is |Σ z e^{−2πi k·u}|²/(HW) on the stored half-plane.
func TestSpectralPowerIsTheDefinition(t *testing.T) {
	const w, h = 5, 4
	rng := rand.New(rand.NewPCG(2, 2))
	z := make([]float64, w*h)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	got := make([]float64, h*(w/2+1))
	newFFTPlan(w, h).addPower(got, z)
	for ky := range h {
		for kx := range w/2 + 1 {
			var x complex128
			for y := range h {
				for u := range w {
					x += complex(z[y*w+u], 0) * cmplx.Exp(complex(0, -2*math.Pi*(float64(kx*u)/w+float64(ky*y)/h)))
				}
			}
			want := cmplx.Abs(x) * cmplx.Abs(x) / (w * h)
			if d := math.Abs(got[ky*(w/2+1)+kx] - want); d > 1e-12 {
				t.Errorf("(%d, %d): %v, want %v", kx, ky, got[ky*(w/2+1)+kx], want)
			}
		}
	}
}

// TestSpectralJSONAndChunks: Stage in two chunks equals one Stage, bit for bit; the state
// (with a staged minibatch) survives JSON exactly; corrupt JSON is refused by field.
func TestSpectralJSONAndChunks(t *testing.T) {
	spec := plantedSpectrum(t)
	rng := rand.New(rand.NewPCG(5, 5))
	D := spC * spH * spW
	a, _ := NewSpectral(SpectralConfig{Channels: spC, Height: spH, Width: spW})
	b, _ := NewSpectral(SpectralConfig{Channels: spC, Height: spH, Width: spW})
	for range 3 {
		e := plantedResiduals(rng, spec, 6, 2)
		if err := a.Stage(e, 6, 2, D); err != nil {
			t.Fatal(err)
		}
		if err := b.Stage(e[:2*2*D], 2, 2, D); err != nil {
			t.Fatal(err)
		}
		if err := b.Stage(e[2*2*D:], 4, 2, D); err != nil {
			t.Fatal(err)
		}
		a.Commit()
		b.Commit()
	}
	if err := a.Stage(plantedResiduals(rng, spec, 2, 2), 2, 2, D); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	b.staged = a.staged.clone()
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Error("two chunks and one Stage gave different states")
	}
	var c Spectral
	if err := json.Unmarshal(ja, &c); err != nil {
		t.Fatal(err)
	}
	jc, _ := json.Marshal(&c)
	if string(jc) != string(ja) {
		t.Error("the state did not survive a JSON round trip")
	}
	r1, _ := a.Sample(rand.New(rand.NewPCG(9, 9)), 2, 2, D)
	r2, _ := c.Sample(rand.New(rand.NewPCG(9, 9)), 2, 2, D)
	if relErr(r1, r2) != 0 {
		t.Error("the restored sampler draws differently from the same seed")
	}
	bad := strings.Replace(string(ja), `"spectrum":[[`, `"spectrum":[[1,`, 1)
	if err := json.Unmarshal([]byte(bad), &c); err == nil || !strings.Contains(err.Error(), "spectrum") {
		t.Errorf("a spectrum of the wrong length: %v, want an error naming it", err)
	}
	if _, err := New(SpectralName); err == nil || !strings.Contains(err.Error(), "SpectralConfig") {
		t.Errorf("New without a config: %v", err)
	}
	if s, err := New(SpectralName, SpectralConfig{Channels: 1, Height: 2, Width: 2}); err != nil || s.Name() != SpectralName {
		t.Errorf("New with a config: %v, %v", s, err)
	}
}
