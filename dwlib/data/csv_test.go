package data

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// seriesCSV writes a CSV text: a header, then rows rows at t0 + i*step (the
// time column formatted with layout, left out when layout is ""), each
// followed by the values of cols at row i. Values are exact functions of
// the row index, so a test can find any row again after the split.
func seriesCSV(header string, t0 time.Time, step time.Duration, layout string, rows int, cols ...func(i int) float64) string {
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := range rows {
		var f []string
		if layout != "" {
			f = append(f, t0.Add(time.Duration(i)*step).Format(layout))
		}
		for _, c := range cols {
			f = append(f, fmt.Sprint(c(i)))
		}
		b.WriteString(strings.Join(f, ",") + "\n")
	}
	return b.String()
}

// Column generators: a daily cycle, a slow trend, an independent input.
func wave(i int) float64  { return 10 + 3*math.Sin(2*math.Pi*float64(i)/24) }
func trend(i int) float64 { return 100 + float64(i)/8 }
func input(i int) float64 { return float64((i*37)%11) - 5 }

var jan1 = time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)

func TestLoadCSV(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		gz      bool
		spec    CSVSpec
		// want
		time, step     string
		state, drive   []string
		calendar       []string
		units          [3]int
		stateDim       int
		driveDim       int
		firstValRow    int     // raw row index of the first validation step
		firstValState0 float64 // its first state value
	}{
		{
			name:    "15-minute, state only, calendar of 6",
			content: seriesCSV("date,a,b", jan1, 15*time.Minute, "2006-01-02 15:04:05", 400, wave, trend),
			spec:    CSVSpec{UnitLen: 32},
			time:    "date", step: "15m", state: []string{"a", "b"}, calendar: CalendarNames,
			units: [3]int{8, 1, 1}, stateDim: 2, driveDim: 6, firstValRow: 280, firstValState0: wave(280),
		},
		{
			name:    "hourly with a drive column, gzip, chosen columns",
			content: seriesCSV("timestamp,load,temp,unused", jan1, time.Hour, time.RFC3339, 600, wave, input, trend),
			gz:      true,
			spec:    CSVSpec{State: []string{"load"}, Drive: []string{"temp"}, UnitLen: 48},
			time:    "timestamp", step: "1h", state: []string{"load"}, drive: []string{"temp"}, calendar: CalendarNames,
			units: [3]int{8, 1, 1}, stateDim: 1, driveDim: 7, firstValRow: 420, firstValState0: wave(420),
		},
		{
			name:    "daily, no hour of day",
			content: seriesCSV("Date,y", jan1, 24*time.Hour, "2006-01-02", 1000, trend),
			spec:    CSVSpec{UnitLen: 100, Split: CSVSplit{Train: .6, Val: .2, Test: .2}},
			time:    "Date", step: "1d", state: []string{"y"}, calendar: CalendarNames[2:],
			units: [3]int{6, 2, 2}, stateDim: 1, driveDim: 4, firstValRow: 600, firstValState0: trend(600),
		},
		{
			name:    "no time column",
			content: seriesCSV("x1,x2,x3", time.Time{}, 0, "", 300, wave, trend, input),
			spec:    CSVSpec{UnitLen: 30, Drive: []string{"x3"}},
			time:    TimeNone, state: []string{"x1", "x2"}, drive: []string{"x3"},
			units: [3]int{7, 1, 1}, stateDim: 2, driveDim: 1, firstValRow: 210, firstValState0: wave(210),
		},
		{
			name: "as spreadsheets write it: byte-order mark, quoted header, CRLF",
			content: "\ufeff" + strings.ReplaceAll(strings.Replace(seriesCSV("date,level", jan1, 10*time.Minute, "2006-01-02T15:04:05", 1000, trend),
				"date,level", `"date","level"`, 1), "\n", "\r\n"),
			spec: CSVSpec{UnitLen: 100},
			time: "date", step: "10m", state: []string{"level"}, calendar: CalendarNames,
			units: [3]int{7, 1, 1}, stateDim: 1, driveDim: 6, firstValRow: 700, firstValState0: trend(700),
		},
		{
			name:    "pandas index: an unnamed time column",
			content: seriesCSV(",a,b", jan1, 5*time.Minute, "2006-01-02 15:04:05", 400, wave, trend),
			spec:    CSVSpec{UnitLen: 40},
			time:    "", step: "5m", state: []string{"a", "b"}, calendar: CalendarNames,
			units: [3]int{7, 1, 1}, stateDim: 2, driveDim: 6, firstValRow: 280, firstValState0: wave(280),
		},
		{
			name:    "semicolon-separated, calendar off",
			content: strings.ReplaceAll(seriesCSV("time,v", jan1, 30*time.Minute, "2006-01-02 15:04", 200, wave), ",", ";"),
			spec:    CSVSpec{Delimiter: ";", Calendar: CalendarNone, UnitLen: 20},
			time:    "time", step: "30m", state: []string{"v"},
			units: [3]int{7, 1, 1}, stateDim: 1, driveDim: 0, firstValRow: 140, firstValState0: wave(140),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, "my series.csv", tc.content, tc.gz)
			tab, err := ReadCSV(path, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			s := tab.Spec
			if s.Name != "my-series" || s.Time != tc.time || s.Step != tc.step || !slices.Equal(s.State, tc.state) || !slices.Equal(s.Drive, tc.drive) {
				t.Errorf("resolved spec %+v, want name my-series, time %q, step %q, state %v, drive %v", s, tc.time, tc.step, tc.state, tc.drive)
			}
			if tc.calendar != nil && (s.Calendar != CalendarAuto || !slices.Equal(CalendarNamesFor(tab.Step), tc.calendar)) {
				t.Errorf("calendar %q %v, want %v", s.Calendar, CalendarNamesFor(tab.Step), tc.calendar)
			}
			if tc.calendar == nil && s.Calendar != CalendarNone {
				t.Errorf("calendar %q, want %q", s.Calendar, CalendarNone)
			}
			// The resolved spec reads the file to the same table.
			again, err := ReadCSV(path, s)
			if err != nil || again.Spec.Step != s.Step || !slices.EqualFunc(again.Values, tab.Values, slices.Equal) {
				t.Errorf("reading again with the resolved spec: %v", err)
			}
			d, err := tab.Dataset()
			if err != nil {
				t.Fatal(err)
			}
			if got := [3]int{len(d.Train), len(d.Val), len(d.Test)}; got != tc.units {
				t.Errorf("units %v, want %v", got, tc.units)
			}
			if d.Name != "my-series" || d.StateDim != tc.stateDim || d.DriveDim != tc.driveDim {
				t.Errorf("dataset %q state %d drive %d, want my-series, %d, %d", d.Name, d.StateDim, d.DriveDim, tc.stateDim, tc.driveDim)
			}
			if d.Split.Val[0] != tc.units[0] || d.Split.Test[0] != tc.units[0]+tc.units[1] {
				t.Errorf("unit indices %v, want counted from the first row", d.Split)
			}
			// Train-only standardisation: the training units have mean 0 and
			// sd 1, the validation units (later in time) do not.
			for _, drive := range []bool{false, true} {
				if drive && d.DriveDim == 0 {
					continue
				}
				m, sd := pooledMoments(d.Train, drive)
				for j := range m {
					if math.Abs(m[j]) > 1e-9 || math.Abs(sd[j]-1) > 1e-9 && sd[j] != 0 {
						t.Errorf("drive=%v coordinate %d: train mean %g sd %g", drive, j, m[j], sd[j])
					}
				}
			}
			raw := d.Norm.Invert(d.Val[0])
			if math.Abs(raw.X[0][0]-tc.firstValState0) > 1e-9 {
				t.Errorf("first validation step %v, want row %d = %v", raw.X[0][0], tc.firstValRow, tc.firstValState0)
			}
			if len(tc.drive) > 0 && math.Abs(raw.Drive[0][0]-input(tc.firstValRow)) > 1e-9 {
				t.Errorf("first validation drive %v, want row %d = %v", raw.Drive[0][0], tc.firstValRow, input(tc.firstValRow))
			}
			if len(tc.calendar) > 0 {
				want := CalendarFeaturesFor(jan1.Add(time.Duration(tc.firstValRow)*tab.Step), tab.Step)
				if got := raw.Drive[0][len(tc.drive):]; !slices.EqualFunc(got, want, func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }) {
					t.Errorf("calendar of the first validation step %v, want %v", got, want)
				}
			}
		})
	}
}

// The three ways to split, on one hourly file of 1000 rows.
func TestCSVSplits(t *testing.T) {
	path := writeTemp(t, "hourly.csv", seriesCSV("date,y", jan1, time.Hour, "2006-01-02 15:04:05", 1000, trend), false)
	for _, tc := range []struct {
		name  string
		split CSVSplit
		first [3]int // first row of train, val and test
		units [3]int
	}{
		{"fractions", CSVSplit{Train: .5, Val: .25, Test: .25}, [3]int{0, 500, 750}, [3]int{10, 5, 5}},
		{"fractions with an unused tail", CSVSplit{Train: .5, Val: .2, Test: .1}, [3]int{0, 500, 700}, [3]int{10, 4, 2}},
		{"dates", CSVSplit{ValStart: "2021-01-25", TestStart: "2021-02-01 12:00"}, [3]int{0, 24 * 24, 31*24 + 12}, [3]int{11, 3, 4}},
		{"dates with an end", CSVSplit{ValStart: "2021-01-25", TestStart: "2021-02-01T12:00:00Z", End: "2021-02-04"}, [3]int{0, 576, 756}, [3]int{11, 3, 1}},
		{"rows", CSVSplit{TrainRows: 300, ValRows: 100, TestRows: 100}, [3]int{0, 300, 400}, [3]int{6, 2, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := LoadCSV(path, CSVSpec{Split: tc.split, UnitLen: 50})
			if err != nil {
				t.Fatal(err)
			}
			if got := [3]int{len(d.Train), len(d.Val), len(d.Test)}; got != tc.units {
				t.Errorf("units %v, want %v", got, tc.units)
			}
			for k, s := range [][]Series{d.Train, d.Val, d.Test} {
				if got := d.Norm.Invert(s[0]).X[0][0]; math.Abs(got-trend(tc.first[k])) > 1e-9 {
					t.Errorf("split %d starts at value %v, want row %d (%v)", k, got, tc.first[k], trend(tc.first[k]))
				}
			}
		})
	}
}

// Broken files are refused with the file, the line and the field.
func TestReadCSVRefusals(t *testing.T) {
	hourly := func(rows int) []string {
		return strings.Split(strings.TrimSuffix(seriesCSV("date,load,temp", jan1, time.Hour, "2006-01-02 15:04:05", rows, wave, input), "\n"), "\n")
	}
	edit := func(lines []string, line int, f func(string) string) string {
		out := slices.Clone(lines)
		out[line-1] = f(out[line-1])
		return strings.Join(out, "\n") + "\n"
	}
	drop := func(lines []string, line, n int) string { // n lines from line on
		return strings.Join(slices.Delete(slices.Clone(lines), line-1, line-1+n), "\n") + "\n"
	}
	h := hourly(40)
	for _, tc := range []struct {
		name    string
		content string
		spec    CSVSpec
		wants   []string
	}{
		{"gap", drop(h, 10, 1), CSVSpec{}, []string{"line 10:", "field 1 (date)", "2021-01-01 09:00:00 does not follow 2021-01-01 07:00:00", "step 1h (inferred)", "a gap of 2h (1 missing row)"}},
		{"long gap", drop(h, 10, 2), CSVSpec{}, []string{"line 10:", "a gap of 3h (2 missing rows)"}},
		{"irregular step", edit(h, 12, func(s string) string { return strings.Replace(s, "10:00:00", "10:30:00", 1) }), CSVSpec{}, []string{"line 12:", "field 1 (date)", "an irregular step of 1h30m"}},
		{"duplicate row", edit(h, 5, func(string) string { return h[3] }), CSVSpec{}, []string{"line 5:", "field 1 (date)", "not after it"}},
		{"step other than given", strings.Join(h, "\n"), CSVSpec{Step: "30m"}, []string{"line 3:", "step 30m (given)", "a gap of 1h"}},
		{"NaN", edit(h, 7, func(s string) string { return s[:strings.Index(s, ",")] + ",NaN,1" }), CSVSpec{}, []string{"line 7:", "field 2 (load)", `non-finite value "NaN"`}},
		{"infinite drive", edit(h, 8, func(s string) string { return s[:strings.LastIndex(s, ",")] + ",-Inf" }), CSVSpec{Drive: []string{"temp"}}, []string{"line 8:", "field 3 (temp)", "non-finite"}},
		{"malformed number", edit(h, 9, func(s string) string { return s[:strings.Index(s, ",")] + ",12.5.1,1" }), CSVSpec{}, []string{"line 9:", "field 2 (load)", `invalid number "12.5.1"`}},
		{"missing value", edit(h, 6, func(s string) string { return s[:strings.LastIndex(s, ",")] + ", " }), CSVSpec{}, []string{"line 6:", "field 3 (temp)", "missing value"}},
		{"missing column", strings.Join(h, "\n"), CSVSpec{State: []string{"load", "humidity"}}, []string{"line 1:", `no state column "humidity"`, "columns: date, load, temp"}},
		{"missing time column", strings.Join(h, "\n"), CSVSpec{Time: "when"}, []string{"line 1:", `no time column "when"`}},
		{"duplicate header", strings.Replace(strings.Join(h, "\n"), "temp", "load", 1), CSVSpec{State: []string{"load"}}, []string{"line 1:", `column "load" appears twice (fields 2 and 3)`}},
		{"too many fields", edit(h, 4, func(s string) string { return s + ",3" }), CSVSpec{}, []string{"line 4:", "4 fields, want 3 (date,load,temp)"}},
		{"too few fields", edit(h, 4, func(s string) string { return s[:strings.LastIndex(s, ",")] }), CSVSpec{}, []string{"line 4:", "2 fields, want 3"}},
		{"bad timestamp", edit(h, 3, func(s string) string { return strings.Replace(s, "2021-01-01 01", "2021-01-01 1am", 1) }), CSVSpec{}, []string{"line 3:", "field 1 (date)", `does not match the layout "2006-01-02 15:04:05"`}},
		{"unknown layout", "date,y\n01.01.2021,3\n02.01.2021,4\n", CSVSpec{}, []string{"line 2:", "field 1 (date)", "matches none of the layouts", "time_layout"}},
		{"blank line inside", edit(h, 3, func(s string) string { return s + "\n" }), CSVSpec{}, []string{"line 4:", "blank line inside the data"}},
		{"blank lines at the end are fine, text after them is not", strings.Join(h, "\n") + "\n\n\n" + h[1], CSVSpec{}, []string{"line 42:", "blank line inside the data"}},
		{"empty file", "", CSVSpec{}, []string{"line 1:", "empty file"}},
		{"unnamed integer index", ",y\n0,1.5\n1,2.5\n", CSVSpec{}, []string{"line 2:", "field 1 (unnamed)", `timestamp "0"`, "-time none"}},
		{"no time column for a date split", strings.Replace(strings.Join(h, "\n"), "date,", "when,", 1), CSVSpec{Time: TimeAuto, Split: CSVSplit{ValStart: "2021-01-01", TestStart: "2021-01-02"}},
			[]string{"line 1:", `a split by dates needs a time column, but the first column "when" is not named date, time`}},
		{"bad quote", edit(h, 5, func(s string) string { return strings.Replace(s, ",", `,"`, 1) }), CSVSpec{}, []string{"line 5:", "quoted field"}},
		{"stray quote", edit(h, 6, func(s string) string { return strings.Replace(s, ",", `,4"`, 1) }), CSVSpec{}, []string{"line 6:", "column 22", `bare "`}},
		{"header only", "date,load\n", CSVSpec{}, []string{"line 2:", "no data rows"}},
		{"one row", strings.Join(h[:2], "\n"), CSVSpec{}, []string{"line 2:", "only 1 data row"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, "broken.csv", tc.content, false)
			_, err := ReadCSV(path, tc.spec)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range append([]string{path}, tc.wants...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// Well-formed files too short for the split into units are refused with
// the rows each split holds.
func TestCSVTooFewRows(t *testing.T) {
	path := writeTemp(t, "short.csv", seriesCSV("date,y", jan1, time.Hour, "2006-01-02 15:04:05", 100, trend), false)
	for _, tc := range []struct {
		spec  CSVSpec
		wants []string
	}{
		{CSVSpec{}, []string{"the training split by fractions (0.7/0.15/0.15) has 70 rows (data rows 1–70, 2021-01-01 00:00:00 to 2021-01-03 21:00:00)", "fewer than one unit of 256 steps", "unit_len", "100 data rows"}},
		{CSVSpec{UnitLen: 20}, []string{"the validation split", "15 rows (data rows 71–85"}},
		{CSVSpec{UnitLen: 10, Split: CSVSplit{TrainRows: 80, ValRows: 10, TestRows: 20}}, []string{"100 data rows, the split by rows (80/10/20) needs 110"}},
		{CSVSpec{UnitLen: 10, Split: CSVSplit{ValStart: "2021-01-04", TestStart: "2021-01-04 05:00"}}, []string{"the validation split by dates", "has 5 rows"}},
		{CSVSpec{UnitLen: 10, Split: CSVSplit{ValStart: "2021-02-01", TestStart: "2021-03-01"}}, []string{"the validation split by dates", "has 0 rows,"}},
	} {
		_, err := LoadCSV(path, tc.spec)
		if err == nil {
			t.Errorf("%+v: no error", tc.spec)
			continue
		}
		for _, w := range append([]string{path, "data: short:"}, tc.wants...) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: error %q does not mention %q", tc.spec, err, w)
			}
		}
	}
}

func TestCalendarNamesFor(t *testing.T) {
	all, noHour, yearOnly := CalendarNames, CalendarNames[2:], CalendarNames[4:]
	for _, tc := range []struct {
		step time.Duration
		want []string
	}{
		{15 * time.Minute, all}, {time.Hour, all}, {36 * time.Hour, all}, {24 * time.Hour, noHour}, {48 * time.Hour, noHour}, {7 * 24 * time.Hour, yearOnly},
	} {
		ts := jan1.Add(29*time.Hour + 15*time.Minute)
		names, feats, full := CalendarNamesFor(tc.step), CalendarFeaturesFor(ts, tc.step), CalendarFeatures(ts)
		if !slices.Equal(names, tc.want) || !slices.Equal(feats, full[CalendarDim-len(tc.want):]) {
			t.Errorf("step %v: names %v features %v, want %v and the tail of %v", tc.step, names, feats, tc.want, full)
		}
	}
}

func TestParseFormatStep(t *testing.T) {
	for _, s := range []string{"15m", "1h", "1h30m", "1m30s", "45s", "1d", "7d", "36h"} {
		d, err := ParseStep(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := FormatStep(d); got != s {
			t.Errorf("FormatStep(ParseStep(%q)) = %q", s, got)
		}
	}
	for _, s := range []string{"", "0h", "-1h", "1w", "xd"} {
		if _, err := ParseStep(s); err == nil {
			t.Errorf("ParseStep(%q): no error", s)
		}
	}
}
