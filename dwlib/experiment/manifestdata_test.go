package experiment

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/prior"
)

// writeManifestCSV writes a participants manifest of two CSV recordings (T steps, C channels)
// with a stimulus, and returns its path.
func writeManifestCSV(t *testing.T, dir string, T, C int) string {
	t.Helper()
	for r := range 2 {
		var sb strings.Builder
		for i := range T {
			for c := range C {
				if c > 0 {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, "%.6f", math.Sin(float64(i)*0.07*float64(c+1)+float64(r))+0.1*math.Cos(float64(i*(r+3))))
			}
			sb.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%d.csv", r)), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var st strings.Builder
	for i := range T {
		fmt.Fprintf(&st, "%.6f\n", math.Sin(float64(i)*0.05))
	}
	os.WriteFile(filepath.Join(dir, "stim.csv"), []byte(st.String()), 0o644)
	m := fmt.Sprintf(`{"name": "toy", "chunk_len": 64, "split": {"val_start": %d, "test_start": %d, "gap": 16},
	  "participants": [{"id": "P01", "recordings": [{"data": "r0.csv", "stimulus": "stim.csv"}, {"data": "r1.csv", "stimulus": "stim.csv"}]}]}`, T*7/10, T*85/100)
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A manifest is a testbed: "manifest:PATH" resolves to manifest-<name>-<hash8>, trains with
// DW-Prior (factor-AR), and a changed file is refused by name.
func TestManifestTestbedRun(t *testing.T) {
	dir := t.TempDir()
	path := writeManifestCSV(t, dir, 800, 4)
	cfg, err := Resolve(Quick, data.ManifestPrefix+path, "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cfg.Testbed, "manifest-toy-") || cfg.Data.Manifest == nil || strings.Contains(cfg.Name(), "/tmp") {
		t.Fatalf("testbed %q, name %q", cfg.Testbed, cfg.Name())
	}
	cfg.Train.Sampler, cfg.Fit.Epochs = prior.FactorName, 1
	opt := quickOptions(t)
	r, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Prior == nil || r.Prior.Sampler != prior.FactorName {
		t.Errorf("prior record %+v", r.Prior)
	}
	if _, err := ReadConfig(filepath.Join(opt.RunsDir, cfg.Name(), ConfigFile)); err != nil {
		t.Errorf("the written configuration does not read back: %v", err)
	}
	// A changed data file: the run's data are refused, naming the manifest.
	os.WriteFile(filepath.Join(dir, "r1.csv"), []byte("1,2,3,4\n"), 0o644)
	if _, err := LoadData(cfg, opt); err == nil || !strings.Contains(err.Error(), "m.json") || !strings.Contains(err.Error(), "changed") {
		t.Errorf("changed file: %v", err)
	}
	if _, err := Resolve(Quick, data.ManifestPrefix+filepath.Join(dir, "none.json"), "dw", 0, 0); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("missing manifest: %v", err)
	}
}
