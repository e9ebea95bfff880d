package data

import (
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestGeneratorOptionErrors: bad or unsupported values are refused with an
// error naming the field and the value.
func TestGeneratorOptionErrors(t *testing.T) {
	badMG := smallMG(false)
	badMG.Generator = "Authors"
	badNARMA := smallNARMA()
	badNARMA.Generator = "release"
	for _, tc := range []struct {
		name string
		err  func() error
		want []string
	}{
		{"unknown value", func() error {
			_, err := Load("mackey-glass", Options{NoCache: true, Generator: "author"})
			return err
		}, []string{"Options.Generator", `"author"`, `"authors"`, `"project"`}},
		{"unknown value, any testbed", func() error {
			_, err := Load("ettm1", Options{Generator: "paper"})
			return err
		}, []string{"Options.Generator", `"paper"`}},
		{"authors for known-snr", func() error {
			_, err := Load("known-snr", Options{NoCache: true, Generator: GeneratorAuthors})
			return err
		}, []string{"known-snr", "Options.Generator", `"authors"`, authorsTestbeds}},
		{"authors for ETT", func() error {
			_, err := Load("ettm2", Options{Generator: GeneratorAuthors})
			return err
		}, []string{"ettm2", "Options.Generator", `"authors"`}},
		{"scalar norm for ETT", func() error {
			_, err := Load("ettm1", Options{ScalarNorm: true})
			return err
		}, []string{"ettm1", "Options.ScalarNorm", "true"}},
		{"MGConfig", func() error { _, err := GenerateMackeyGlass(badMG); return err },
			[]string{"MGConfig.Generator", `"Authors"`}},
		{"NARMAConfig", func() error { _, err := GenerateNARMA5(badNARMA); return err },
			[]string{"NARMAConfig.Generator", `"release"`}},
	} {
		err := tc.err()
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %s", tc.name, err, w)
			}
		}
	}
}

// TestCacheKeyGenerator: the project's keys are unchanged (so existing cache
// files stay valid), "" and "project" share them, and the authors' recipe
// gets a different key and file for every synthetic testbed it implements.
func TestCacheKeyGenerator(t *testing.T) {
	mg, dmg, narma := DefaultMGConfig(), DefaultDrivenMGConfig(), DefaultNARMAConfig()
	for _, tc := range []struct {
		name    string
		key     func(gen string) string
		project string
	}{
		{"mackey-glass", func(g string) string { c := mg; c.Generator = g; return c.cacheKey() },
			"gen=mackey-glass/v1;n=40;T=2048;ch=8;tau=30;beta=0.2;gamma=0.1;power=10;h=0.1;burn=1000;hist=0.5..1.5;seed=20260101"},
		{"driven-mg", func(g string) string { c := dmg; c.Generator = g; return c.cacheKey() },
			"gen=mackey-glass/v1;n=40;T=2048;ch=8;tau=30;beta=0.2;gamma=0.1;power=10;h=0.1;burn=1000;hist=0.5..1.5;seed=20260101;drive=ar1;scale=0.08;coef=0.9"},
		{"narma5", func(g string) string { c := narma; c.Generator = g; return c.cacheKey() },
			"gen=narma5-tanh/v1;n=40;T=2048;ch=8;burn=200;uhigh=0.5;seed=20260101"},
	} {
		if k := tc.key(""); k != tc.project || tc.key(GeneratorProject) != k {
			t.Errorf("%s: project keys %q / %q, want today's %q", tc.name, k, tc.key(GeneratorProject), tc.project)
		}
		a := tc.key(GeneratorAuthors)
		if a == tc.project || cachePath("d", tc.name, a) == cachePath("d", tc.name, tc.project) {
			t.Errorf("%s: authors' recipe shares the project's key %q", tc.name, a)
		}
		t.Logf("%s authors key: %s", tc.name, a)
	}
}

// TestLoadCacheSeparatesGenerators goes through Load with a cache directory:
// each recipe has its own file and reads back its own data; ScalarNorm only
// changes the standardisation of the same raw file.
func TestLoadCacheSeparatesGenerators(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"mackey-glass", "narma5"} {
		base := Options{CacheDir: dir, NumTraj: 6, Length: 40}
		auth := base
		auth.Generator = GeneratorAuthors
		p, err := Load(name, base)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Load(name, auth)
		if err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, name+"-*.bin"))
		if len(files) != 2 {
			t.Fatalf("%s: cache files %v, want one per recipe", name, files)
		}
		if rowsEqual(p.Norm.Invert(p.Train[0]).X, a.Norm.Invert(a.Train[0]).X) {
			t.Fatalf("%s: the two recipes read the same data", name)
		}
		again, _ := Load(name, auth)
		assertSameSeries(t, a.Train, again.Train)
		fresh, _ := Load(name, Options{NoCache: true, NumTraj: 6, Length: 40, Generator: GeneratorAuthors})
		assertSameSeries(t, a.Test, fresh.Test)

		auth.ScalarNorm = true
		s, err := Load(name, auth)
		if err != nil {
			t.Fatal(err)
		}
		if files2, _ := filepath.Glob(filepath.Join(dir, name+"-*.bin")); len(files2) != 2 {
			t.Fatalf("%s: ScalarNorm wrote another cache file: %v", name, files2)
		}
		for i := range s.Val {
			x, y := s.Norm.Invert(s.Val[i]).X, a.Norm.Invert(a.Val[i]).X
			for k := range x {
				for j := range x[k] {
					if d := math.Abs(x[k][j] - y[k][j]); d > 1e-12 {
						t.Fatalf("%s: ScalarNorm changed the raw data (%g)", name, d)
					}
				}
			}
		}
	}
}

// TestAuthorsDeterministic: same seed, same numbers (also under any
// parallelism); another generation seed, other numbers.
func TestAuthorsDeterministic(t *testing.T) {
	for _, name := range []string{"mackey-glass", "driven-mg", "narma5"} {
		opt := Options{NoCache: true, NumTraj: 5, Length: 40, Generator: GeneratorAuthors, ScalarNorm: true}
		a, err := Load(name, opt)
		if err != nil {
			t.Fatal(err)
		}
		prev := runtime.GOMAXPROCS(1)
		b, _ := Load(name, opt)
		runtime.GOMAXPROCS(prev)
		assertSameSeries(t, a.Train, b.Train)
		assertSameSeries(t, a.Test, b.Test)
		opt.GenSeed = 7
		c, _ := Load(name, opt)
		if rowsEqual(a.Train[0].X, c.Train[0].X) {
			t.Errorf("%s: another generation seed gives the same data", name)
		}
	}
}
