package data

import (
	"math"
	"testing"
)

// smallAuthorsMG is smallMG with the authors' recipe.
func smallAuthorsMG(driven bool, scale float64) MGConfig {
	c := smallMG(driven)
	c.Generator = GeneratorAuthors
	c.DriveScale = scale
	return c
}

// fineGrid holds every grid value mgSimulateChannel reports, history
// included: at(n) is x_n for n >= -off.
type fineGrid struct {
	off int
	v   []float64
}

func (g *fineGrid) at(n int) float64 { return g.v[n+g.off] }

// recordAuthors runs one channel of the authors' recipe and records its grid,
// checking that indices arrive in order starting with the lag+2 history slots.
func recordAuthors(t *testing.T, c MGConfig, traj, ch int) (*fineGrid, []float64, []float64) {
	t.Helper()
	lag, _, _ := c.grid()
	g := &fineGrid{off: lag + 1}
	samples, u := mgSimulateChannel(c, traj, ch, func(n int, x float64) {
		if n != len(g.v)-g.off {
			t.Fatalf("grid index %d, want %d", n, len(g.v)-g.off)
		}
		g.v = append(g.v, x)
	})
	return g, samples, u
}

// TestAuthorsMGHistory: the initial buffer is lag+2 = 302 independent draws
// of 1.2 + .02 N(0,1), different for every trajectory and channel.
func TestAuthorsMGHistory(t *testing.T) {
	c := smallAuthorsMG(false, 0)
	lag, _, _ := c.grid()
	var all []float64
	var lag1, first []float64
	for traj := range c.NumTraj {
		for ch := range c.Channels {
			g, _, _ := recordAuthors(t, c, traj, ch)
			h := g.v[:lag+2] // n = -lag-1 .. 0
			if len(h) != 302 {
				t.Fatalf("%d history slots, want 302", len(h))
			}
			all = append(all, h...)
			for k := 1; k < len(h); k++ {
				lag1 = append(lag1, (h[k]-1.2)*(h[k-1]-1.2))
			}
			first = append(first, h[0])
		}
	}
	n := float64(len(all))
	mean, sd := meanSD(all)
	r := 0.0
	for _, v := range lag1 {
		r += v
	}
	r /= float64(len(lag1)) * sd * sd
	t.Logf("%d slots: mean %.5f sd %.5f lag-1 correlation %.4f", len(all), mean, sd, r)
	if math.Abs(mean-1.2) > 4*.02/math.Sqrt(n) {
		t.Errorf("history mean %v, want 1.2 within 4 standard errors", mean)
	}
	if math.Abs(sd/.02-1) > 4/math.Sqrt(2*n) {
		t.Errorf("history sd %v, want .02 within 4 standard errors", sd)
	}
	if math.Abs(r) > 4/math.Sqrt(n) {
		t.Errorf("neighbouring slots correlate (%v): not independent draws", r)
	}
	for k := 1; k < len(first); k++ {
		if first[k] == first[0] {
			t.Fatalf("history %d repeats history 0", k)
		}
	}
}

// meanSD is the mean and population standard deviation of v.
func meanSD(v []float64) (mean, sd float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(v)))
}

// frozenStep is one RK4 step of dx/dt = beta xd/(1+xd^p) - gamma x + force
// with xd held fixed, transcribed from the release's description.
func frozenStep(c MGConfig, x, xd, force float64) float64 {
	f := func(x float64) float64 {
		return c.Beta*xd/(1+math.Pow(xd, float64(c.Power))) - c.Gamma*x + force
	}
	h := c.Step
	k1 := f(x)
	k2 := f(x + h/2*k1)
	k3 := f(x + h/2*k2)
	k4 := f(x + h*k3)
	return x + h/6*(k1+2*k2+2*k3+k4)
}

// movingStep is the same step with the delay read at the stage times
// (linear midpoint), i.e. what freezing replaces; used to show the test can
// tell the two apart.
func movingStep(c MGConfig, x, xd0, xd1, force float64) float64 {
	f := func(x, xd float64) float64 {
		return c.Beta*xd/(1+math.Pow(xd, float64(c.Power))) - c.Gamma*x + force
	}
	h, xdm := c.Step, (xd0+xd1)/2
	k1 := f(x, xd0)
	k2 := f(x+h/2*k1, xdm)
	k3 := f(x+h/2*k2, xdm)
	k4 := f(x+h*k3, xd1)
	return x + h/6*(k1+2*k2+2*k3+k4)
}

// TestAuthorsMGFrozenRK4Step recomputes single steps by hand from the grid:
// x_{n+1} = RK4(x_n) with x_{n-300} frozen, including the first steps whose
// delay reads the initial history and steps inside the retained window.
func TestAuthorsMGFrozenRK4Step(t *testing.T) {
	for _, tc := range []struct {
		name   string
		driven bool
		scale  float64
	}{
		{"autonomous", false, 0},
		{"driven-.08", true, .08},
		{"driven-.34", true, .34},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := smallAuthorsMG(tc.driven, tc.scale)
			lag, perUnit, _ := c.grid()
			g, _, u := recordAuthors(t, c, 2, 1)
			last := len(g.v) - g.off - 2
			maxErr, maxMoving := 0.0, 0.0
			for _, n := range []int{0, 1, 150, lag - 1, lag, lag + 1, 1234, c.BurnIn * perUnit, c.BurnIn*perUnit + 7, last} {
				force := 0.0
				if tc.driven {
					force = c.DriveScale * u[n/perUnit]
				}
				want := frozenStep(c, g.at(n), g.at(n-lag), force)
				maxErr = max(maxErr, math.Abs(g.at(n+1)-want))
				maxMoving = max(maxMoving, math.Abs(g.at(n+1)-movingStep(c, g.at(n), g.at(n-lag), g.at(n-lag+1), force)))
			}
			t.Logf("max |x_{n+1} - frozen RK4| = %.3g; stage-time delay differs by up to %.3g", maxErr, maxMoving)
			if maxErr > 1e-14 {
				t.Errorf("step differs from the frozen-delay RK4 by %g", maxErr)
			}
			if maxMoving < 1e-9 {
				t.Errorf("a stage-time delay also matches (%g): freezing not tested", maxMoving)
			}
		})
	}
}

// TestAuthorsMGSampling: X[t] is the grid value at time BurnIn+1+t and
// Drive[t] is u over [BurnIn+t, BurnIn+t+1), the interval ending at X[t].
func TestAuthorsMGSampling(t *testing.T) {
	c := smallAuthorsMG(true, .08)
	_, perUnit, _ := c.grid()
	raw, err := GenerateMackeyGlass(c)
	if err != nil {
		t.Fatal(err)
	}
	g, samples, u := recordAuthors(t, c, 1, 1)
	for k, v := range samples {
		if at := g.at((c.BurnIn + 1 + k) * perUnit); v != at || raw[1].X[k][1] != v {
			t.Fatalf("sample %d: %v, grid at time %d: %v, generator %v", k, v, c.BurnIn+1+k, at, raw[1].X[k][1])
		}
		if raw[1].Drive[k][1] != u[c.BurnIn+k] {
			t.Fatalf("Drive[%d] = %v, want u_%d = %v", k, raw[1].Drive[k][1], c.BurnIn+k, u[c.BurnIn+k])
		}
	}
}

// TestAuthorsDriveLag checks the drive alignment of the authors' recipe on
// the public arrays: integrating one unit from X[t-1] with force
// lambda Drive[t] gives X[t] (the drive fed with X[t] produced it), whereas
// the project's alignment (Drive[t-1] drives X[t-1] -> X[t]) does not. The
// realisation is the project's: Drive arrays coincide, so the drive fed with
// the state at time s is u_{s-1} here and u_s in the project.
func TestAuthorsDriveLag(t *testing.T) {
	c := smallAuthorsMG(true, .08)
	lag, perUnit, _ := c.grid()
	auth, err := GenerateMackeyGlass(c)
	if err != nil {
		t.Fatal(err)
	}
	pc := c
	pc.Generator = GeneratorProject
	proj, err := GenerateMackeyGlass(pc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range auth {
		if !rowsEqual(auth[i].Drive, proj[i].Drive) {
			t.Fatalf("trajectory %d: the two recipes draw different drive realisations", i)
		}
	}
	const traj, ch = 0, 1
	g, _, _ := recordAuthors(t, c, traj, ch) // delayed values only
	X := func(k int) float64 { return auth[traj].X[k][ch] }
	D := func(k int) float64 { return auth[traj].Drive[k][ch] }
	unit := func(k int, drive float64) float64 { // X[k-1] -> X[k], interval [B+k, B+k+1)
		x, n0 := X(k-1), (c.BurnIn+k)*perUnit
		for s := range perUnit {
			x = frozenStep(c, x, g.at(n0+s-lag), c.DriveScale*drive)
		}
		return x
	}
	maxErr, minWrong := 0.0, math.Inf(1)
	for k := 1; k < len(auth[traj].X); k += 7 {
		maxErr = max(maxErr, math.Abs(unit(k, D(k))-X(k)))
		minWrong = min(minWrong, math.Abs(unit(k, D(k-1))-X(k)))
	}
	t.Logf("with Drive[t]: max error %.3g; with Drive[t-1]: min error %.3g", maxErr, minWrong)
	if maxErr > 1e-13 {
		t.Errorf("X[t-1] -> X[t] under Drive[t] misses by %g", maxErr)
	}
	if minWrong < 1e-5 {
		t.Errorf("Drive[t-1] also reproduces X[t] (%g): alignment not tested", minWrong)
	}
}

// TestAuthorsMGScaleZero: as in the release, the driven recipe at scale 0 is
// the autonomous one bit for bit, and the authors' states differ from the
// project's.
func TestAuthorsMGScaleZero(t *testing.T) {
	auto, err := GenerateMackeyGlass(smallAuthorsMG(false, 0))
	if err != nil {
		t.Fatal(err)
	}
	zero, _ := GenerateMackeyGlass(smallAuthorsMG(true, 0))
	proj, _ := GenerateMackeyGlass(smallMG(false))
	for i := range auto {
		if !rowsEqual(auto[i].X, zero[i].X) {
			t.Fatalf("trajectory %d: driven at scale 0 differs from autonomous", i)
		}
		if rowsEqual(auto[i].X, proj[i].X) {
			t.Fatalf("trajectory %d: authors' and project's states coincide", i)
		}
	}
}

// TestAuthorsMGAttractor: both recipes land on the same tau=30 attractor
// (range and moments); the logged numbers are what the docs quote.
func TestAuthorsMGAttractor(t *testing.T) {
	stats := map[string][2]float64{}
	for _, gen := range []string{GeneratorProject, GeneratorAuthors} {
		c := DefaultMGConfig()
		c.NumTraj, c.Length, c.Channels, c.Generator = 8, 1024, 4, gen
		raw, err := GenerateMackeyGlass(c)
		if err != nil {
			t.Fatal(err)
		}
		var v []float64
		for _, s := range raw {
			for _, r := range s.X {
				v = append(v, r...)
			}
		}
		mean, sd := meanSD(v)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range v {
			lo, hi = min(lo, x), max(hi, x)
		}
		t.Logf("%s: mean %.4f sd %.4f range [%.4f, %.4f]", gen, mean, sd, lo, hi)
		if lo <= .15 || hi >= 1.5 || mean < .8 || mean > 1 {
			t.Errorf("%s: mean %v, range [%v, %v]: not the tau=30 attractor", gen, mean, lo, hi)
		}
		stats[gen] = [2]float64{mean, sd}
	}
	p, a := stats[GeneratorProject], stats[GeneratorAuthors]
	if math.Abs(p[0]-a[0]) > .03 || math.Abs(p[1]/a[1]-1) > .1 {
		t.Errorf("moments differ: project %v, authors %v", p, a)
	}
}
