package data

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/fields"
)

// tinyShear is a shear testbed of about a second: 5 trajectories of 7 frames on the CPU grid
// subsampled by 4 (8 × 16), cut into 4-frame sequences with stride 3 (2 per trajectory).
func tinyShear(dir string) Options {
	return Options{NumTraj: 5, Length: 7, FieldGrid: ShearGridCPU, Subsample: 4, SeqLen: 4, SeqStride: 3, CacheDir: dir}
}

// sharedShear is tinyShear in one cache directory for the whole test binary, so that the tests
// that only read the data simulate it once.
var sharedShear = sync.OnceValues(func() (*Dataset, error) {
	dir, err := os.MkdirTemp("", "dwgo-shear-test-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	return Load(ShearName, tinyShear(dir))
})

// TestShearLayout: the states are the simulator's frames, channel-major, subsampled by striding,
// and FieldShape reports the layout.
func TestShearLayout(t *testing.T) {
	opt := tinyShear("")
	ds, err := sharedShear()
	if err != nil {
		t.Fatal(err)
	}
	f, ok := FieldShape(ds)
	if !ok || f.Channels != 4 || f.Height != 16 || f.Width != 8 || !slices.Equal(f.Names, fields.Channels) {
		t.Fatalf("FieldShape = %+v, %v; want 4 channels (%v) of 16 x 8", f, ok, fields.Channels)
	}
	if want, err := ShearField(opt); err != nil || want.Dim() != f.Dim() || ds.StateDim != f.Dim() {
		t.Fatalf("ShearField = %+v (%v), StateDim %d; want %d", want, err, ds.StateDim, f.Dim())
	}
	if len(ds.Train) != 3*2 || len(ds.Val) != 2 || len(ds.Test) != 2 || ds.DriveDim != 0 || !ds.Norm.State.IsIdentity() {
		t.Fatalf("splits %d/%d/%d sequences, drive %d, identity norm %v; want 6/2/2, 0, true",
			len(ds.Train), len(ds.Val), len(ds.Test), ds.DriveDim, ds.Norm.State.IsIdentity())
	}
	// Trajectory Split.Test[0] simulated directly: its frame 3 is test sequence 0's frame 3 and
	// test sequence 1's frame 0 (stride 3).
	c, _ := shearConfig(opt)
	sim := c.Sim
	sim.Seed = newStream(c.Seed, purposeShear, ds.Split.Test[0]).Uint64()
	frames, err := fields.Shear(sim)
	if err != nil {
		t.Fatal(err)
	}
	nx, ny := sim.Flow.NX, sim.Flow.NY
	for ch := range 4 {
		for _, p := range [][2]int{{0, 0}, {3, 5}, {15, 7}} { // (row, column) on the coarse grid
			want := frames[3][ch*nx*ny+4*p[0]*nx+4*p[1]]
			i := ch*f.Height*f.Width + p[0]*f.Width + p[1]
			if got := ds.Test[0].X[3][i]; got != want {
				t.Errorf("channel %d (%d, %d): state %v, simulator %v", ch, p[0], p[1], got, want)
			}
			if got := ds.Test[1].X[0][i]; got != want {
				t.Errorf("channel %d (%d, %d): next sequence's first frame %v, want %v", ch, p[0], p[1], got, want)
			}
		}
	}
}

// TestShearSequencesStayInTrajectories: every sequence is a run of consecutive frames of one
// trajectory of its own split, and the three splits share no trajectory.
func TestShearSequencesStayInTrajectories(t *testing.T) {
	opt := tinyShear("")
	ds, err := sharedShear()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := shearConfig(opt)
	raw, err := GenerateShear(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range raw {
		raw[i].X = subsampleFrames(raw[i].X, c.Sim.Flow.NX, c.Sim.Flow.NY, c.Subsample)
	}
	if all := slices.Concat(ds.Split.Train, ds.Split.Val, ds.Split.Test); !slices.Equal(all, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("split %+v is not the fixed partition 0-2 / 3 / 4 of the 5 trajectories", ds.Split)
	}
	for _, sp := range []struct {
		name  string
		seqs  []Series
		trajs []int
	}{{"train", ds.Train, ds.Split.Train}, {"val", ds.Val, ds.Split.Val}, {"test", ds.Test, ds.Split.Test}} {
		starts := SequenceStarts(7, 4, 3)
		if len(sp.seqs) != len(sp.trajs)*len(starts) {
			t.Fatalf("%s: %d sequences for %d trajectories", sp.name, len(sp.seqs), len(sp.trajs))
		}
		for i, s := range sp.seqs {
			tr, st := raw[sp.trajs[i/len(starts)]], starts[i%len(starts)]
			for k := range s.X {
				if !slices.Equal(s.X[k], tr.X[st+k]) {
					t.Fatalf("%s sequence %d frame %d is not frame %d of trajectory %d", sp.name, i, k, st+k, sp.trajs[i/len(starts)])
				}
			}
		}
	}
}

func TestSequenceStarts(t *testing.T) {
	for _, tc := range []struct {
		T, L, S int
		want    []int
	}{
		{200, 64, 16, []int{0, 16, 32, 48, 64, 80, 96, 112, 128}}, // the paper: 9 per trajectory
		{10, 4, 3, []int{0, 3, 6}},
		{10, 10, 5, []int{0}},
		{9, 10, 1, nil},
	} {
		if got := SequenceStarts(tc.T, tc.L, tc.S); !slices.Equal(got, tc.want) {
			t.Errorf("SequenceStarts(%d, %d, %d) = %v, want %v", tc.T, tc.L, tc.S, got, tc.want)
		}
	}
	if tr, va, te, _ := FieldSplitCounts(40); tr != 32 || va != 4 || te != 4 {
		t.Errorf("FieldSplitCounts(40) = %d/%d/%d, want the paper's 32/4/4", tr, va, te)
	}
}

// TestShearDeterministicAndCached: the same seed gives the same data, from the cache the second
// time (a file under CacheDir, a hit for its key); another generation seed other data; another
// experimental seed the same split (the paper keeps The Well's partitions).
func TestShearDeterministicAndCached(t *testing.T) {
	dir := t.TempDir()
	opt := tinyShear(dir)
	a, err := Load(ShearName, opt)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "shear-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	c, _ := shearConfig(opt)
	_, res, err := loadOrGenerate(dir, ShearName, c.cacheKey(), func() ([]Series, error) {
		t.Fatal("generated again despite the cache")
		return nil, nil
	})
	if err != nil || res != cacheHit {
		t.Fatalf("cache result %v, err %v; want a hit", res, err)
	}
	b, err := Load(ShearName, opt)
	if err != nil {
		t.Fatal(err)
	}
	assertSameSeries(t, b.Train, a.Train)
	// Another subsampling reads the same file: the cache holds the simulated grid.
	sub := opt
	sub.Subsample = 2
	s2, err := Load(ShearName, sub)
	if err != nil {
		t.Fatal(err)
	}
	if f, _ := FieldShape(s2); f.Height != 32 || f.Width != 16 {
		t.Errorf("Subsample 2: %d x %d, want 32 x 16", f.Height, f.Width)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "shear-*.bin")); len(files) != 1 {
		t.Errorf("Subsample 2 wrote another cache file: %v", files)
	}
	assertSameSeries(t, b.Test, a.Test)

	seeded := opt
	seeded.Seed = 5
	if s, err := Load(ShearName, seeded); err != nil {
		t.Fatal(err)
	} else if !slices.Equal(s.Split.Test, a.Split.Test) {
		t.Errorf("experimental seed 5 split %+v, seed 0 %+v: want the fixed split", s.Split, a.Split)
	} else {
		assertSameSeries(t, s.Test, a.Test)
	}
	other := opt
	other.GenSeed = 7
	o, err := Load(ShearName, other)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(o.Train[0].X[2], a.Train[0].X[2]) {
		t.Error("generation seed 7 gave the default seed's frames")
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "shear-*.bin")); len(files) != 2 {
		t.Errorf("cache files %v, want one per generation seed", files)
	}
}

func TestShearCacheKeyHasEveryParameter(t *testing.T) {
	base, _ := shearConfig(tinyShear(""))
	for _, tc := range []struct {
		name string
		f    func(*ShearDataConfig)
	}{
		{"NumTraj", func(c *ShearDataConfig) { c.NumTraj++ }},
		{"Frames", func(c *ShearDataConfig) { c.Sim.Frames++ }},
		{"NX", func(c *ShearDataConfig) { c.Sim.Flow.NX *= 2 }},
		{"NY", func(c *ShearDataConfig) { c.Sim.Flow.NY *= 2 }},
		{"LX", func(c *ShearDataConfig) { c.Sim.Flow.LX = 1.5 }},
		{"LY", func(c *ShearDataConfig) { c.Sim.Flow.LY = 1.5 }},
		{"Re", func(c *ShearDataConfig) { c.Sim.Flow.Re++ }},
		{"Sc", func(c *ShearDataConfig) { c.Sim.Flow.Sc++ }},
		{"DT", func(c *ShearDataConfig) { c.Sim.Flow.DT /= 2 }},
		{"Width", func(c *ShearDataConfig) { c.Sim.Width *= 2 }},
		{"Amp", func(c *ShearDataConfig) { c.Sim.Amp *= 2 }},
		{"Modes", func(c *ShearDataConfig) { c.Sim.Modes++ }},
		{"StepsPerFrame", func(c *ShearDataConfig) { c.Sim.StepsPerFrame++ }},
		{"Seed", func(c *ShearDataConfig) { c.Seed++ }},
	} {
		c := base
		tc.f(&c)
		if c.cacheKey() == base.cacheKey() {
			t.Errorf("%s: changing it leaves the cache key %q", tc.name, base.cacheKey())
		}
	}
}

func TestShearOptionErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
		want []string
	}{
		{"grid", Options{FieldGrid: 48, NoCache: true}, []string{"FieldGrid = 48", "64", "32"}},
		{"subsample", Options{FieldGrid: 32, Subsample: 3, NoCache: true}, []string{"Subsample = 3"}},
		{"seqlen", Options{FieldGrid: 32, Length: 10, SeqLen: 11, NoCache: true}, []string{"SeqLen = 11"}},
		{"trajectories", Options{FieldGrid: 32, NumTraj: 2, NoCache: true}, []string{"NumTraj = 2"}},
		{"scalar norm", Options{ScalarNorm: true, NoCache: true}, []string{"ScalarNorm", "raw scale"}},
		{"authors", Options{Generator: "authors", NoCache: true}, []string{"authors"}},
		{"drive", Options{DriveScale: 0.1, NoCache: true}, []string{"DriveScale"}},
	} {
		_, err := Load(ShearName, tc.opt)
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, w)
			}
		}
	}
	// The field options on a time series testbed are refused by name.
	_, err := Load("narma5", Options{Subsample: 2, SeqLen: 8, NoCache: true})
	if err == nil || !strings.Contains(err.Error(), "Subsample = 2") || !strings.Contains(err.Error(), "SeqLen = 8") || !strings.Contains(err.Error(), ShearName) {
		t.Errorf("narma5 with field options: %v", err)
	}
}
