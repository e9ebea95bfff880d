package experiment

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// writeHourly writes an hourly CSV of rows rows (a daily cycle plus a drive) into dir.
func writeHourly(t *testing.T, dir, name string, rows int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("date,load,temp\n")
	t0 := time.Date(2022, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		fmt.Fprintf(&b, "%s,%.4f,%d\n", t0.Add(time.Duration(i)*time.Hour).Format(time.DateTime), 5+math.Sin(2*math.Pi*float64(i)/24), i%7)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCSVDataIdentity(t *testing.T) {
	dir := t.TempDir()
	path := writeHourly(t, dir, "Hourly.csv", 800)
	spec := data.CSVSpec{Drive: []string{"temp"}}
	d, err := NewCSVData(path, spec)
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(d.Path) || len(d.SHA256) != 64 || d.Spec.Step != "1h" || d.Spec.Time != "date" || d.Spec.UnitLen != data.DefaultCSVUnitLen {
		t.Errorf("CSVData %+v: want an absolute path, a SHA-256 and the resolved spec", d)
	}
	if !regexp.MustCompile(`^csv-hourly-[0-9a-f]{8}$`).MatchString(d.Testbed()) {
		t.Errorf("testbed %q, want csv-hourly-<8 hex digits>", d.Testbed())
	}
	// The same bytes elsewhere are the same data set; other bytes or another reading are not.
	other := t.TempDir()
	moved := filepath.Join(other, "Hourly.csv")
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(moved, b, 0o644); err != nil {
		t.Fatal(err)
	}
	same, err := NewCSVData(moved, spec)
	if err != nil || same.Testbed() != d.Testbed() {
		t.Errorf("moved copy: %v, testbed %q, want %q", err, same.Testbed(), d.Testbed())
	}
	changed, _ := NewCSVData(writeHourly(t, other, "hourly.csv", 801), spec)
	units, _ := NewCSVData(path, data.CSVSpec{Drive: []string{"temp"}, UnitLen: 128})
	for what, o := range map[string]*CSVData{"another file": changed, "another unit length": units} {
		if o == nil || o.Testbed() == d.Testbed() || !strings.HasPrefix(o.Testbed(), "csv-hourly-") {
			t.Errorf("%s: testbed %v, want csv-hourly-* other than %s", what, o, d.Testbed())
		}
	}

	c, err := ResolveCSV(Quick, d, "dw", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := "quick/" + d.Testbed() + "/dw-K8-s1"; c.Name() != want {
		t.Errorf("Name() = %q, want %q", c.Name(), want)
	}
	if c.Data.Length != 64 || c.Data.MaxUnits != 8 || c.Train.K != 8 {
		t.Errorf("quick CSV run: unit length %d, max units %d, K %d; want 64, 8, 8", c.Data.Length, c.Data.MaxUnits, c.Train.K)
	}
	if p, _ := ResolveCSV(Standard, d, "tbptt", 0, 0); p.Train.K != 32 || p.Train.Segment != 8 || p.unitLength() != 256 {
		t.Errorf("standard CSV run: K %d, TBPTT segment %d, units %d; want 32, 8 (the Mackey–Glass controls), 256", p.Train.K, p.Train.Segment, p.unitLength())
	}
	// The configuration round-trips through config.json, and the path is no part of its identity.
	cfgPath := filepath.Join(dir, ConfigFile)
	if err := os.WriteFile(cfgPath, c.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadConfig(cfgPath)
	if err != nil || string(back.JSON()) != string(c.JSON()) {
		t.Fatalf("ReadConfig: %v\n%s", err, back.JSON())
	}
	cm, _ := ResolveCSV(Quick, same, "dw", 1, 0)
	if cm.Data.CSV.Path == c.Data.CSV.Path || string(mustCanonical(cm.identity())) != string(mustCanonical(c.identity())) {
		t.Error("a moved file changes the run's identity")
	}
	if baselineKey(cm, &data.Dataset{}).Data.CSV.Path != "" {
		t.Error("the baselines' key holds the path")
	}

	ds, err := LoadData(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 800 rows: 560 training rows in 64-step units, at most 8 kept; a load and 1 + 6 drive coordinates.
	if len(ds.Train) != 8 || len(ds.Val) != 1 || ds.StateDim != 1 || ds.DriveDim != 7 || ds.Name != d.Testbed() {
		t.Errorf("loaded %q: %d/%d/%d units, state %d, drive %d", ds.Name, len(ds.Train), len(ds.Val), len(ds.Test), ds.StateDim, ds.DriveDim)
	}
	if n := PlannedBatches(c); n != c.Fit.Epochs*8*c.Fit.StartsPerUnit/c.Train.BatchSize {
		t.Errorf("PlannedBatches = %d", n)
	}

	// A moved file is read from its new place, a changed one is refused.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadData(c, Options{}); err == nil || !strings.Contains(err.Error(), "Options.DataFile") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := LoadData(c, Options{DataFile: moved}); err != nil {
		t.Errorf("moved file: %v", err)
	}
	if err := os.WriteFile(moved, append(b, "2022-06-03 08:00:00,5.0,1\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadData(c, Options{DataFile: moved})
	if err == nil || !strings.Contains(err.Error(), "the file changed") || !strings.Contains(err.Error(), d.SHA256) {
		t.Errorf("changed file: %v", err)
	}
}

func TestCSVConfigRefusals(t *testing.T) {
	path := writeHourly(t, t.TempDir(), "h.csv", 300)
	d, err := NewCSVData(path, data.CSVSpec{UnitLen: 32})
	if err != nil {
		t.Fatal(err)
	}
	c, err := ResolveCSV(Quick, d, "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(*RunConfig)) RunConfig {
		e := c
		csv := *c.Data.CSV
		e.Data.CSV = &csv
		f(&e)
		return e
	}
	for _, tc := range []struct {
		name string
		cfg  RunConfig
		want string
	}{
		{"testbed renamed", edit(func(c *RunConfig) { c.Testbed = "csv-h-00000000" }), `testbed "csv-h-00000000" does not match its CSV data set`},
		{"spec edited", edit(func(c *RunConfig) { c.Data.CSV.Spec.UnitLen = 48 }), "does not match its CSV data set"},
		{"bad hash", edit(func(c *RunConfig) { c.Data.CSV.SHA256 = "abc" }), `data.csv.sha256 "abc"`},
		{"synthetic options", edit(func(c *RunConfig) { c.Data.NumTraj = 40 }), "apply to the synthetic testbeds"},
		{"bad spec", edit(func(c *RunConfig) { c.Data.CSV.Spec.Calendar = "yes" }), "data.csv.spec: calendar"},
	} {
		if err := tc.cfg.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	// Units of 16 steps cannot hold the quick profile's 4 + 4 + ceil(1.5·8) = 20 test steps.
	short, err := NewCSVData(path, data.CSVSpec{UnitLen: 16})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveCSV(Quick, short, "dw", 0, 0); err == nil || !strings.Contains(err.Error(), "needs 20 steps, but units have 16") {
		t.Errorf("units too short for K: %v", err)
	}
	if _, err := ResolveCSV(Quick, nil, "dw", 0, 0); err == nil {
		t.Error("ResolveCSV without data: no error")
	}
	// Jobs carry their data set; a job whose testbed is not its data's name is refused.
	grid := Grid{Methods: []string{"full", "dw"}, Seeds: []uint64{0}, Data: d}
	jobs := grid.Jobs()
	if len(jobs) != 2 || jobs[0].Testbed != d.Testbed() || jobs[1].Data != d {
		t.Errorf("jobs %+v", jobs)
	}
	b, _ := json.Marshal(jobs[0])
	if !strings.Contains(string(b), `"sha256"`) {
		t.Errorf("a job's JSON lacks its data: %s", b)
	}
	jobs[0].Testbed = "mackey-glass"
	if _, err := ResolveJobs(Standard, jobs); err == nil || !strings.Contains(err.Error(), "is not the name of the job's CSV data set") {
		t.Errorf("mismatched job: %v", err)
	}
}
