package data

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	want := []string{"known-snr", "mackey-glass", "driven-mg", "narma5", "ettm1", "ettm2", "ieeg-synth", "fmri-synth", "shear"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	_, err := Load("mackey_glass", Options{})
	if err == nil {
		t.Fatal("unknown name accepted")
	}
	for _, n := range want {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %q", err, n)
		}
	}
}

// TestLoadSynthetic checks shapes, split sizes and determinism of every
// synthetic testbed at quick-profile sizes.
func TestLoadSynthetic(t *testing.T) {
	for _, tc := range []struct {
		name     string
		driveDim int
	}{
		{"known-snr", 0},
		{"mackey-glass", 0},
		{"driven-mg", 8},
		{"narma5", 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{NoCache: true, NumTraj: 20, Length: 48, Seed: 2}
			d, err := Load(tc.name, opt)
			if err != nil {
				t.Fatal(err)
			}
			if d.Name != tc.name || d.StateDim != 8 || d.DriveDim != tc.driveDim {
				t.Fatalf("name %q state %d drive %d", d.Name, d.StateDim, d.DriveDim)
			}
			if len(d.Train) != 14 || len(d.Val) != 3 || len(d.Test) != 3 {
				t.Fatalf("split %d/%d/%d, want 14/3/3", len(d.Train), len(d.Val), len(d.Test))
			}
			for _, s := range slices.Concat(d.Train, d.Val, d.Test) {
				if s.Len() != 48 || (tc.driveDim == 0) != (s.Drive == nil) {
					t.Fatalf("series length %d, drive %v", s.Len(), s.Drive != nil)
				}
			}
			again, _ := Load(tc.name, opt)
			assertSameSeries(t, d.Train, again.Train)
			opt.GenSeed = 5
			other, _ := Load(tc.name, opt)
			if rowsEqual(other.Train[0].X, d.Train[0].X) {
				t.Error("different generation seed, same data")
			}
		})
	}
}

func TestLoadOptionErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"mackey-glass", Options{NoCache: true, DriveScale: .1}, "driven-mg"},
		{"driven-mg", Options{NoCache: true, DriveScale: -1}, "DriveScale"},
		{"narma5", Options{NoCache: true, NumTraj: -1}, "negative"},
		{"known-snr", Options{NoCache: true, NumTraj: 2}, "at least 3"},
	} {
		_, err := Load(tc.name, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: error %v, want mention of %q", tc.name, tc.opt, err, tc.want)
		}
	}
}

// TestDriveScaleOption: the drive sweep changes states but not drives or
// splits.
func TestDriveScaleOption(t *testing.T) {
	base := Options{NoCache: true, NumTraj: 6, Length: 40}
	a, _ := Load("driven-mg", base)
	base.DriveScale = .34
	b, _ := Load("driven-mg", base)
	if !slices.Equal(a.Split.Test, b.Split.Test) {
		t.Error("split depends on the drive scale")
	}
	assertSameDrive := rowsEqual(a.Train[0].Drive, b.Train[0].Drive)
	if !assertSameDrive || rowsEqual(a.Norm.Invert(a.Train[0]).X, b.Norm.Invert(b.Train[0]).X) {
		t.Errorf("drive equal %v (want true); states should differ", assertSameDrive)
	}
}

func TestFindRepoRoot(t *testing.T) {
	root, err := FindRepoRoot("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("root %q has no go.mod: %v", root, err)
	}
	sub, err := FindRepoRoot(filepath.Join(root, "dwlib", "data"))
	if err != nil || sub != root {
		t.Errorf("from the package directory: %q %v, want %q", sub, err, root)
	}
	if _, err := FindRepoRoot(t.TempDir()); err == nil {
		t.Error("found a go.mod above a temp dir")
	}
}
