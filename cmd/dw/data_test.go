package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// hourlyCSV writes an hourly load with an observed temperature: a daily cycle, a weekly one and
// a little deterministic noise.
func hourlyCSV(t *testing.T, dir string, rows int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("timestamp,load,temperature\n")
	t0 := time.Date(2023, 1, 2, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		day, week := 2*math.Pi*float64(i)/24, 2*math.Pi*float64(i)/168
		temp := 8 - 5*math.Cos(day)
		load := 40 + 8*math.Sin(day) + 3*math.Sin(week) - 0.5*temp + 0.3*math.Sin(float64(i*i%97))
		fmt.Fprintf(&b, "%s,%.3f,%.2f\n", t0.Add(time.Duration(i)*time.Hour).Format(time.DateTime), load, temp)
	}
	path := filepath.Join(dir, "hourly.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCSVTrainResumeEvalTable is the user's path with no Go: a CSV file trains (stopped and
// resumed), is read back, evaluates and tabulates through dw like a built-in testbed, and a
// changed file is refused.
func TestCSVTrainResumeEvalTable(t *testing.T) {
	dir, runs := t.TempDir(), t.TempDir()
	csv := hourlyCSV(t, dir, 1000)
	dataArgs := []string{"-profile", "quick", "-data", csv, "-drive", "temperature", "-runs", runs}

	cfgJSON, err := dw(t, append([]string{"config", "-method", "dw"}, dataArgs...)...)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`"testbed": "(csv-hourly-[0-9a-f]{8})"`).FindStringSubmatch(cfgJSON)
	if m == nil || !strings.Contains(cfgJSON, `"sha256"`) || !strings.Contains(cfgJSON, `"drive": [`) || !strings.Contains(cfgJSON, `"step": "1h"`) {
		t.Fatalf("dw config:\n%s", cfgJSON)
	}
	testbed := m[1]
	runDir := filepath.Join(runs, "quick", testbed, "dw-K8-s0")

	train := append([]string{"train", "-method", "dw"}, dataArgs...)
	if _, err := dw(t, append(train, "-stop-after", "1")...); !errors.Is(err, experiment.ErrStopped) {
		t.Fatalf("-stop-after 1: %v, want ErrStopped", err)
	}
	if _, err := dw(t, train...); err == nil || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("training over a checkpoint without -resume: %v", err)
	}
	// Resuming on a file that changed since is refused; on the original file it continues.
	b, _ := os.ReadFile(csv)
	writeFile(t, csv, string(b)+"2023-02-12 16:00:00,40.0,8.0\n")
	if _, err := dw(t, "train", "-config", filepath.Join(runDir, experiment.ConfigFile), "-runs", runs, "-resume"); err == nil || !strings.Contains(err.Error(), "the file changed") {
		t.Fatalf("resuming on a changed file: %v", err)
	}
	writeFile(t, csv, string(b))
	out, err := dw(t, append(train, "-resume")...)
	if err != nil {
		t.Fatal(err)
	}
	score := relL2.FindStringSubmatch(out)
	if score == nil || !strings.Contains(out, filepath.Join(runDir, experiment.ResultFile)) {
		t.Fatalf("dw train: %q", out)
	}
	if again, err := dw(t, train...); err != nil || again != out {
		t.Errorf("a finished CSV run is not read back: %v\n%s", err, again)
	}

	table, err := dw(t, "table", "-profile", "quick", "-data", csv, "-drive", "temperature", "-methods", "dw", "-seeds", "0", "-runs", runs)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| " + testbed + " | dw | 1 | ", "| " + testbed + " | ridge-ar | 1 |", "| vs best baseline |"} {
		if !strings.Contains(table, want) {
			t.Errorf("dw table lacks %q:\n%s", want, table)
		}
	}
	grid := []string{"-profile", "quick", "-data", csv, "-drive", "temperature", "-methods", "dw", "-seeds", "0", "-runs", runs}
	if plan, err := dw(t, append([]string{"sweep", "-plan"}, grid...)...); err != nil || !strings.Contains(plan, "quick/"+testbed+"/dw-K8-s0") || !strings.Contains(plan, "1 runs, 8 minibatches") {
		t.Errorf("dw sweep -plan: %v\n%s", err, plan)
	}
	if sw, err := dw(t, append([]string{"sweep"}, grid...)...); err != nil || !strings.HasPrefix(sw, table) || !strings.Contains(sw, "1 runs (quick profile") {
		t.Errorf("dw sweep does not read the run back: %v\n%s", err, sw)
	}
	if bl, logs, err := dwLogs(t, "baselines", "-profile", "quick", "-data", csv, "-drive", "temperature", "-seeds", "0", "-runs", runs); err != nil ||
		!strings.Contains(bl, "| "+testbed+" | 12 | 0 | ridge-ar |") || !strings.Contains(logs, "read back") {
		t.Errorf("dw baselines -data: %v\n%s\n%s", err, bl, logs)
	}
	if ev, err := dw(t, "eval", "-run", runDir); err != nil || !strings.Contains(ev, "test rel-L2 "+score[1]) {
		t.Errorf("dw eval: %v %q, training reported %s", err, ev, score[1])
	}

	// The file moves: dw eval needs its new place; the same bytes are the same run.
	moved := filepath.Join(t.TempDir(), "hourly.csv")
	if err := os.WriteFile(moved, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(csv); err != nil {
		t.Fatal(err)
	}
	if _, err := dw(t, "eval", "-run", runDir); err == nil || !strings.Contains(explain(err), "say where it is now (give -data FILE)") {
		t.Errorf("dw eval after the file moved: %v", err)
	}
	if ev, err := dw(t, "eval", "-run", runDir, "-data", moved); err != nil || !strings.Contains(ev, score[1]) {
		t.Errorf("dw eval -data MOVED: %v %q", err, ev)
	}
	if again, err := dw(t, "train", "-method", "dw", "-profile", "quick", "-data", moved, "-drive", "temperature", "-runs", runs); err != nil || again != out {
		t.Errorf("the moved file is not the same run: %v\n%s", err, again)
	}

	// The file changes: the run refuses it, and the new content gets a directory of its own.
	if err := os.WriteFile(moved, append(b, "2023-02-12 16:00:00,40.0,8.0\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := dw(t, "eval", "-run", runDir, "-data", moved); err == nil || !strings.Contains(err.Error(), "the file changed") {
		t.Errorf("dw eval on a changed file: %v", err)
	}
	other, err := dw(t, "config", "-method", "dw", "-profile", "quick", "-data", moved, "-drive", "temperature")
	if err != nil || strings.Contains(other, testbed) || !strings.Contains(other, `"testbed": "csv-hourly-`) {
		t.Errorf("a changed file keeps the run's name %s: %v", testbed, err)
	}
}

// TestCSVSpecAndFlags: -data-spec and the flags that override it reach the run's configuration.
func TestCSVSpecAndFlags(t *testing.T) {
	dir := t.TempDir()
	csv := hourlyCSV(t, dir, 1000)
	spec := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(spec, []byte(`{"name": "grid", "state": ["load"], "drive": ["temperature"], "split": {"val_start": "2023-02-01", "test_start": "2023-02-06"}, "unit_len": 48}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-data-spec", spec}, []string{`"testbed": "csv-grid-`, `"val_start": "2023-02-01"`, `"unit_len": 48`, `"state": [`}},
		{[]string{"-data-spec", spec, "-split", "0.6,0.2,0.2", "-unit-len", "96"}, []string{`"train": 0.6`, `"unit_len": 96`, `"length": 64`}},
		{[]string{"-time", "none", "-state", "load", "-split", "0.5,0.25,0.25"}, []string{`"time": "none"`, `"calendar": "none"`, `"train": 0.5`}},
		{[]string{"-split", "2023-02-01,2023-02-06,2023-02-10"}, []string{`"end": "2023-02-10"`}},
	} {
		out, err := dw(t, append([]string{"config", "-method", "full", "-profile", "quick", "-data", csv}, tc.args...)...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: config lacks %s:\n%s", tc.args, w, out)
			}
		}
	}
}

func TestCSVBadInputIsRefused(t *testing.T) {
	dir, runs := t.TempDir(), t.TempDir()
	csv := hourlyCSV(t, dir, 1000)
	lines := strings.Split(readFile(t, csv), "\n")
	gap := filepath.Join(dir, "gap.csv")
	writeFile(t, gap, strings.Join(append(lines[:50:50], lines[52:]...), "\n"))
	badSpec := filepath.Join(dir, "bad.json")
	writeFile(t, badSpec, `{"stat": ["load"]}`)
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"train", "-testbed", "narma5", "-data", csv, "-method", "dw"}, "-testbed(s) and -data are mutually exclusive", true},
		{[]string{"sweep", "-testbeds", "narma5", "-data", csv, "-methods", "dw"}, "mutually exclusive", true},
		{[]string{"sweep", "-preset", "table", "-data", csv}, "-preset replaces", true},
		{[]string{"baselines", "-testbeds", "narma5", "-data", csv}, "mutually exclusive", true},
		{[]string{"train", "-config", "c.json", "-data", csv}, "-config replaces", true},
		{[]string{"train", "-testbed", "narma5", "-method", "dw", "-state", "load"}, "-state describes a CSV file", true},
		{[]string{"train", "-data", csv}, "-data FILE and -method", true},
		{[]string{"train", "-data", csv, "-method", "dw", "-split", "0.7,0.3"}, `-split: "0.7,0.3" is neither`, true},
		{[]string{"train", "-data", csv, "-method", "dw", "-split", "0.7,0.2,0.2"}, "split: train + val + test = 1.1", true},
		{[]string{"train", "-data", csv, "-method", "dw", "-state", "load,humidity"}, `line 1: bad header: no state column "humidity"`, false},
		{[]string{"train", "-data", csv, "-method", "dw", "-data-spec", badSpec}, `unknown field "stat"`, false},
		{[]string{"train", "-data", gap, "-method", "dw"}, gap + " line 51: field 1 (timestamp)", false},
		{[]string{"train", "-data", filepath.Join(dir, "none.csv"), "-method", "dw"}, "no such file", false},
		{[]string{"train", "-data", csv, "-method", "dw", "-unit-len", "12"}, "needs 20 steps, but units have 12", false},
		{[]string{"train", "-data", csv, "-method", "dw", "-profile", "standard", "-split", "0.9,0.05,0.05"}, "the validation split by fractions (0.9/0.05/0.05) has 50 rows", false},
	} {
		_, err := dw(t, append(tc.args, "-runs", runs)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("dw %v: %v, want an error containing %q", tc.args, err, tc.want)
			continue
		}
		var ue usageError
		if errors.As(err, &ue) != tc.usage {
			t.Errorf("dw %v: usage error = %v, want %v", tc.args, !tc.usage, tc.usage)
		}
	}
	if entries, _ := os.ReadDir(runs); len(entries) != 0 {
		t.Errorf("refused commands created %d entries in the runs directory", len(entries))
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCSVSpecFlagsRoundTrip checks data.CSVSpec.Flags against this command's flag parser: the
// flags a spec prints read the file exactly as the spec does.
func TestCSVSpecFlagsRoundTrip(t *testing.T) {
	csv := hourlyCSV(t, t.TempDir(), 1000)
	for _, spec := range []data.CSVSpec{
		{},
		{Time: "timestamp", State: []string{"load"}, Drive: []string{"temperature"}, Split: data.CSVSplit{Train: 0.6, Val: 0.2, Test: 0.2}, UnitLen: 96},
		{Drive: []string{"temperature"}, Split: data.CSVSplit{ValStart: "2023-02-01", TestStart: "2023-02-06", End: "2023-02-10"}},
		{Time: data.TimeNone, State: []string{"temperature", "load"}, UnitLen: 50},
	} {
		flags, err := spec.Flags()
		if err != nil {
			t.Fatal(err)
		}
		var d dataFlags
		fs := flag.NewFlagSet("dw", flag.ContinueOnError)
		d.register(fs)
		if err := fs.Parse(append([]string{"-data", csv}, flags...)); err != nil {
			t.Fatalf("%q: %v", flags, err)
		}
		got, err := d.csv()
		if err != nil {
			t.Fatalf("%q: %v", flags, err)
		}
		want, err := experiment.NewCSVData(csv, spec)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Spec, want.Spec) {
			t.Errorf("flags %q read the file as\n%+v\nthe spec reads it as\n%+v", flags, got.Spec, want.Spec)
		}
	}
}
