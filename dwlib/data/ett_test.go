package data

import (
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// ettDirOrSkip returns the shared ETT directory or skips the test.
func ettDirOrSkip(t *testing.T) string {
	t.Helper()
	dir, err := DefaultETTDir()
	if err == nil {
		err = ETTAvailable(dir)
	}
	if err != nil {
		t.Skipf("ETT data unavailable (expected at <repo>/../shared/data/ett; it is never copied into the project): %v", err)
	}
	return dir
}

func TestETTRealData(t *testing.T) {
	dir := ettDirOrSkip(t)
	for _, name := range []string{"ettm1", "ettm2"} {
		t.Run(name, func(t *testing.T) {
			d, err := Load(name, Options{ETTDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Train) != 135 || len(d.Val) != 45 || len(d.Test) != 45 {
				t.Fatalf("units %d/%d/%d, want 135/45/45", len(d.Train), len(d.Val), len(d.Test))
			}
			if d.StateDim != 7 || d.DriveDim != 6 {
				t.Fatalf("dims state %d drive %d, want 7 and 6", d.StateDim, d.DriveDim)
			}
			if err := d.CheckHorizon(16, 240); err != nil {
				t.Error(err)
			}
			for _, sp := range d.splits() {
				for u, s := range sp.series {
					if s.Len() != 256 {
						t.Fatalf("%s unit %d: %d steps, want 256", sp.name, u, s.Len())
					}
				}
			}
			if d.Split.Val[0] != 135 || d.Split.Test[44] != 224 {
				t.Errorf("unit indices val[0]=%d test[44]=%d, want 135 and 224", d.Split.Val[0], d.Split.Test[44])
			}
			for _, drive := range []bool{false, true} {
				m, s := pooledMoments(d.Train, drive)
				for j := range m {
					if math.Abs(m[j]) > 1e-9 || math.Abs(s[j]-1) > 1e-9 {
						t.Errorf("drive=%v coord %d: train mean %g std %g", drive, j, m[j], s[j])
					}
				}
			}
			// Row boundaries: compare with the file itself.
			path, _ := ettFile(dir, name)
			tab, err := ReadETT(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Values) != 69680 {
				t.Errorf("%d data rows, want 69680", len(tab.Values))
			}
			for _, c := range []struct {
				s   Series
				t   int
				row int
			}{{d.Train[0], 0, 0}, {d.Val[0], 0, ETTTrainRows}, {d.Test[0], 0, ETTTrainRows + ETTValRows}, {d.Test[44], 255, 57599}} {
				raw := d.Norm.Invert(c.s)
				for j, v := range tab.Values[c.row] {
					if math.Abs(raw.X[c.t][j]-v) > 1e-9*(1+math.Abs(v)) {
						t.Fatalf("row %d coord %d: %v, file has %v", c.row, j, raw.X[c.t][j], v)
					}
				}
				cal := CalendarFeatures(tab.Time[c.row])
				for j := range cal {
					if math.Abs(raw.Drive[c.t][j]-cal[j]) > 1e-9 {
						t.Fatalf("row %d calendar %d: %v, want %v", c.row, j, raw.Drive[c.t][j], cal[j])
					}
				}
			}
			if got := tab.Time[ETTTrainRows].Format(ettTimeLayout); got != "2017-06-26 00:00:00" {
				t.Errorf("validation starts at %s, want 2017-06-26 00:00:00 (12 x 30 days after 2016-07-01)", got)
			}
		})
	}
}

// syntheticETT builds an in-memory table with value = row index, so the
// split logic is tested without the licensed data.
func syntheticETT(rows int) *ETTTable {
	tab := &ETTTable{Path: "synthetic"}
	t0 := time.Date(2016, 7, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		tab.Time = append(tab.Time, t0.Add(time.Duration(i)*ettStep))
		v := make([]float64, ETTStateDim)
		for j := range v {
			v[j] = float64(i) + float64(j)*1e5
		}
		tab.Values = append(tab.Values, v)
	}
	return tab
}

func TestETTDatasetSplitRows(t *testing.T) {
	tab := syntheticETT(ETTTrainRows + ETTValRows + ETTTestRows + 1000)
	d, err := ETTDataset("ettm1", tab, ETTUnitLen)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Train) != 135 || len(d.Val) != 45 || len(d.Test) != 45 {
		t.Fatalf("units %d/%d/%d, want 135/45/45", len(d.Train), len(d.Val), len(d.Test))
	}
	first := func(s Series, k int) float64 { return d.Norm.Invert(s).X[k][0] }
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"train[0][0]", first(d.Train[0], 0), 0},
		{"train[134][255]", first(d.Train[134], 255), 34559},
		{"val[0][0]", first(d.Val[0], 0), 34560},
		{"val[44][255]", first(d.Val[44], 255), 46079},
		{"test[0][0]", first(d.Test[0], 0), 46080},
		{"test[44][255]", first(d.Test[44], 255), 57599},
	} {
		if math.Abs(c.got-c.want) > 1e-6 {
			t.Errorf("%s is row %v, want row %v", c.name, c.got, c.want)
		}
	}
	if _, err := ETTDataset("ettm1", syntheticETT(57599), ETTUnitLen); err == nil || !strings.Contains(err.Error(), "57600") {
		t.Errorf("short table: %v", err)
	}
	// A shorter unit length gives more units (used by quick profiles).
	d, err = ETTDataset("ettm1", tab, 1024)
	if err != nil || len(d.Train) != 33 || len(d.Val) != 11 {
		t.Errorf("unit length 1024: %v units, err %v", len(d.Train), err)
	}
}

func TestCalendarFeatures(t *testing.T) {
	for _, tc := range []struct {
		ts   string
		want []float64 // phases: hour, weekday, yearday
	}{
		{"2016-07-01 00:00:00", []float64{0, 4.0 / 7, 182.0 / 366}}, // Friday, leap year
		{"2017-01-02 12:00:00", []float64{.5, 0, 1.0 / 365}},        // Monday noon
		{"2017-06-25 18:45:00", []float64{(18*60 + 45) / 1440.0, 6.0 / 7, 175.0 / 365}},
	} {
		ts, _ := time.Parse(ettTimeLayout, tc.ts)
		got := CalendarFeatures(ts)
		for k, p := range tc.want {
			s, c := math.Sincos(2 * math.Pi * p)
			if math.Abs(got[2*k]-s) > 1e-12 || math.Abs(got[2*k+1]-c) > 1e-12 {
				t.Errorf("%s %s: got (%v, %v), want (%v, %v)", tc.ts, CalendarNames[2*k], got[2*k], got[2*k+1], s, c)
			}
		}
	}
}

const goodETT = `date,HUFL,HULL,MUFL,MULL,LUFL,LULL,OT
2016-07-01 00:00:00,5.8,2.0,1.6,0.46,4.2,1.34,30.5
2016-07-01 00:15:00,5.7,2.1,1.5,0.43,4.3,1.40,30.4
2016-07-01 00:30:00,5.2,1.9,1.4,0.40,4.1,1.30,30.3
`

func writeTemp(t *testing.T, name, content string, gz bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if gz {
		w := gzip.NewWriter(f)
		fmt.Fprint(w, content)
		w.Close()
	} else {
		fmt.Fprint(f, content)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadETTWellFormed(t *testing.T) {
	for _, gz := range []bool{false, true} {
		tab, err := ReadETT(writeTemp(t, "ok.csv", goodETT+"\n", gz))
		if err != nil {
			t.Fatalf("gzip=%v: %v", gz, err)
		}
		if len(tab.Values) != 3 || tab.Values[2][6] != 30.3 || tab.Time[1].Minute() != 15 {
			t.Errorf("gzip=%v: parsed %v %v", gz, tab.Time, tab.Values)
		}
	}
}

func TestReadETTMalformed(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(goodETT, "\n"), "\n")
	edit := func(line int, f func(string) string) string {
		out := append([]string(nil), lines...)
		out[line-1] = f(out[line-1])
		return strings.Join(out, "\n") + "\n"
	}
	for _, tc := range []struct {
		name    string
		content string
		wants   []string
	}{
		{"bad header", edit(1, func(string) string { return "date,HUFL,HULL,MUFL,MULL,LUFL,LULL,TEMP" }), []string{"line 1", "bad header"}},
		{"empty file", "", []string{"line 1", "empty file"}},
		{"wrong column count", edit(3, func(s string) string { return s + ",7.0" }), []string{"line 3", "9 fields, want 8"}},
		{"missing column", edit(2, func(s string) string { return s[:strings.LastIndex(s, ",")] }), []string{"line 2", "7 fields"}},
		{"NaN value", edit(4, func(s string) string { return strings.Replace(s, "0.40", "NaN", 1) }), []string{"line 4", "field 5 (MULL)", "non-finite"}},
		{"Inf value", edit(2, func(s string) string { return strings.Replace(s, "30.5", "+Inf", 1) }), []string{"line 2", "field 8 (OT)", "non-finite"}},
		{"unparsable number", edit(3, func(s string) string { return strings.Replace(s, "2.1", "2.1x", 1) }), []string{"line 3", "field 3 (HULL)", `invalid number "2.1x"`}},
		{"bad date", edit(2, func(s string) string { return strings.Replace(s, "2016-07-01", "2016/07/01", 1) }), []string{"line 2", "field 1 (date)"}},
		{"time gap", edit(3, func(s string) string { return strings.Replace(s, "00:15:00", "00:20:00", 1) }), []string{"line 3", "does not follow"}},
		{"blank line inside", strings.Replace(goodETT, "\n2016-07-01 00:15", "\n\n2016-07-01 00:15", 1), []string{"line 3", "blank line"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				path := writeTemp(t, "ETTm1.csv.gz", tc.content, gz)
				_, err := ReadETT(path)
				if err == nil {
					t.Fatalf("gzip=%v: no error", gz)
				}
				for _, w := range append([]string{path}, tc.wants...) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("gzip=%v: error %q does not mention %q", gz, err, w)
					}
				}
			}
		})
	}
	if _, err := ReadETT(filepath.Join(t.TempDir(), "missing.csv")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestLoadETTErrors(t *testing.T) {
	if _, err := Load("ettm1", Options{ETTDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "ETTm1.csv.gz") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Load("ettm2", Options{NumTraj: 3}); err == nil || !strings.Contains(err.Error(), "chronological") {
		t.Errorf("NumTraj for ETT: %v", err)
	}
}

// TestMissingETTNamesTheSetting: a missing ETT file is a SettingError naming data.Options.ETTDir,
// so callers can name their own way to set it.
func TestMissingETTNamesTheSetting(t *testing.T) {
	_, err := Load("ettm2", Options{ETTDir: t.TempDir()})
	var se *SettingError
	if !errors.As(err, &se) || !slices.Equal(se.Settings, []string{"data.Options.ETTDir"}) || !strings.HasSuffix(err.Error(), "(set data.Options.ETTDir)") {
		t.Errorf("Load ettm2 from an empty directory: %v, want a SettingError naming data.Options.ETTDir", err)
	}
}

func TestETTAvailable(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("date\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		add     string
		missing string // "" when both files are there
	}{
		{"", "ETTm1"},
		{"ETTm1.csv.gz", "ETTm2"},
		{"ETTm2.csv", ""}, // plain CSV counts too
	} {
		if c.add != "" {
			write(c.add)
		}
		err := ETTAvailable(dir)
		switch {
		case c.missing == "" && err != nil:
			t.Errorf("after adding %q: %v, want nil", c.add, err)
		case c.missing != "" && (err == nil || !strings.Contains(err.Error(), c.missing) || !strings.Contains(err.Error(), dir)):
			t.Errorf("after adding %q: error %v, want one naming %s and %s", c.add, err, c.missing, dir)
		}
	}
}

// TestETTNoCalendar: Options.NoCalendar leaves the drive out and nothing else: the same units
// with the same standardised states, DriveDim 0; other testbeds refuse it.
func TestETTNoCalendar(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(strings.Join(ETTColumns, ",") + "\n")
	t0 := time.Date(2016, 7, 1, 0, 0, 0, 0, time.UTC)
	rows := ETTTrainRows + ETTValRows + ETTTestRows
	for i := range rows {
		b.WriteString(t0.Add(time.Duration(i) * ettStep).Format(ettTimeLayout))
		for j := range ETTStateDim {
			fmt.Fprintf(&b, ",%g", math.Sin(float64(i)/(50+7*float64(j)))+float64(i%97)/97)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "ETTm1.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	with, err := Load("ettm1", Options{ETTDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	without, err := Load("ettm1", Options{ETTDir: dir, NoCalendar: true})
	if err != nil {
		t.Fatal(err)
	}
	if with.DriveDim != CalendarDim || without.DriveDim != 0 {
		t.Fatalf("DriveDim %d with the calendar and %d without, want %d and 0", with.DriveDim, without.DriveDim, CalendarDim)
	}
	for _, sp := range [][2][]Series{{with.Train, without.Train}, {with.Val, without.Val}, {with.Test, without.Test}} {
		if len(sp[0]) != len(sp[1]) {
			t.Fatalf("%d units with the calendar, %d without", len(sp[0]), len(sp[1]))
		}
		for u := range sp[0] {
			if !slices.EqualFunc(sp[0][u].X, sp[1][u].X, slices.Equal[[]float64]) {
				t.Fatalf("unit %d: the states differ without the calendar", u)
			}
			if sp[1][u].Drive != nil {
				t.Fatalf("unit %d keeps a drive without the calendar", u)
			}
		}
	}
	if _, err := Load("mackey-glass", Options{NoCalendar: true, NoCache: true}); err == nil || !strings.Contains(err.Error(), "NoCalendar") {
		t.Errorf("mackey-glass with NoCalendar: %v, want a refusal naming it", err)
	}
}
