package data

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/internal-dw/dwgo/dwlib/internal/strictjson"
)

// DefaultCSVUnitLen is the unit length of a CSV data set whose spec gives
// none: the ETT units of Appendix F.1, long enough for the paper's context
// plus a 1.5 K evaluation horizon at K = 64.
const DefaultCSVUnitLen = ETTUnitLen

// Default chronological fractions of a CSV data set without a split: the
// 70/15/15 of the synthetic testbeds (Appendix F.1), in time order.
const (
	DefaultTrainFrac = 0.70
	DefaultValFrac   = 0.15
	DefaultTestFrac  = 0.15
)

// Time column values of CSVSpec.Time with a special meaning.
const (
	TimeAuto = ""     // the first column, when its header is date, time, datetime, timestamp or empty
	TimeNone = "none" // no time column: rows are steps, no calendar drive, no date split
)

// Calendar drive settings of CSVSpec.Calendar.
const (
	CalendarAuto = "auto" // "" too: the calendar phases that vary at the step, when there is a time column
	CalendarNone = "none" // no calendar drive
)

// CSVSpec says how to read a time-series CSV file into a [Dataset]: which
// columns are the time, the state and the observed drive, how the rows are
// split in time, and how long a unit is. It is what a user writes (as JSON,
// see [ParseCSVSpec]) to train on their own data; [ReadCSV] returns it
// resolved, with every default made explicit, so a run's configuration
// records exactly how its data were read.
//
// The zero value reads a comma-separated file whose first column is its time
// column when named date, time, datetime or timestamp (or unnamed, as pandas
// writes an index), every other named column as state, with the step
// inferred, a calendar drive, a 70/15/15 chronological split and units of
// 256 rows.
type CSVSpec struct {
	// Name labels the data set (run directories, tables, errors); "": the
	// file's name without its .csv or .csv.gz extension. a-z, 0-9, '-'
	// and '_' only, because it names directories.
	Name string `json:"name,omitempty"`

	// Time is the timestamp column: a header name, TimeNone, or TimeAuto.
	Time string `json:"time,omitempty"`
	// TimeLayout is the timestamps' Go layout ("2006-01-02 15:04:05"); "":
	// detected on the first row among CSVTimeLayouts, then required of
	// every row.
	TimeLayout string `json:"time_layout,omitempty"`
	// Step is the time between rows ("15m", "1h", "1d"); "": inferred as
	// the most common difference. Either way every row must follow the
	// previous one by exactly the step: a gap or an irregular row is an
	// error naming its line, never silently bridged.
	Step string `json:"step,omitempty"`

	// State lists the forecast columns; empty: every named column that is
	// not the time column or a drive column.
	State []string `json:"state,omitempty"`
	// Drive lists observed-drive columns: inputs known over the step from
	// row t to row t+1 (a schedule, a set point, a forecast of the weather)
	// that the model reads but does not forecast. Row t's values become
	// Series.Drive[t], the convention of every testbed.
	Drive []string `json:"drive,omitempty"`
	// Calendar adds sine/cosine calendar coordinates of each row's
	// timestamp to the drive (after the Drive columns): CalendarAuto (or
	// "") for the phases that vary at the step ([CalendarNamesFor]), when
	// there is a time column; CalendarNone for none. The phases are computed
	// in UTC ([CalendarFeatures]), whatever offset each timestamp is written
	// with.
	Calendar string `json:"calendar,omitempty"`

	// Delimiter separates fields: one character; "": ",".
	Delimiter string `json:"delimiter,omitempty"`

	// Split divides the rows in time order into train, validation and
	// test (the default: 70/15/15 by fractions).
	Split CSVSplit `json:"split"`
	// UnitLen is the length of the non-overlapping units each split is cut
	// into, from the split's first row (a trailing partial unit is
	// dropped); 0: DefaultCSVUnitLen.
	UnitLen int `json:"unit_len,omitempty"`
}

// CSVSplit is a chronological split given in exactly one of three ways:
// fractions of the rows (Train, Val, Test; rows after their sum are unused),
// dates (ValStart and TestStart begin validation and test, End, if given,
// ends test, exclusive) or row counts from the first row (TrainRows,
// ValRows, TestRows, as the ETT benchmark's 12/4/4 months of 30 days).
// Dates take any of CSVTimeLayouts ("2024-03-01" is its midnight) and, like
// timestamps without a zone, are UTC. Statistics for standardisation come from the training units only, so the
// split is chosen before anything is fitted.
type CSVSplit struct {
	Train float64 `json:"train,omitempty"`
	Val   float64 `json:"val,omitempty"`
	Test  float64 `json:"test,omitempty"`

	ValStart  string `json:"val_start,omitempty"`
	TestStart string `json:"test_start,omitempty"`
	End       string `json:"end,omitempty"`

	TrainRows int `json:"train_rows,omitempty"`
	ValRows   int `json:"val_rows,omitempty"`
	TestRows  int `json:"test_rows,omitempty"`
}

// CSVTimeLayouts are the timestamp layouts tried, in order, when
// CSVSpec.TimeLayout is empty; split dates may use any of them.
var CSVTimeLayouts = []string{
	"2006-01-02 15:04:05",
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
	"2006-01-02",
	"2006/01/02 15:04:05",
	"2006/01/02 15:04",
	"2006/01/02",
}

// autoTimeNames are the header names TimeAuto accepts for a first column.
var autoTimeNames = []string{"date", "time", "datetime", "timestamp"}

// ReadCSVSpec reads a CSVSpec from a JSON file (see [ParseCSVSpec]).
func ReadCSVSpec(path string) (CSVSpec, error) {
	b, err := strictjson.ReadFile(path)
	if err != nil {
		return CSVSpec{}, fmt.Errorf("data: CSV spec: %w", err)
	}
	return ParseCSVSpec(bytes.NewReader(b), path)
}

// ParseCSVSpec decodes one JSON object into a CSVSpec and validates it. It
// is strict, because a misspelt field silently left at its default would
// train on something other than what the user meant: unknown fields, a field
// given twice, more than strictjson.MaxFileBytes, trailing data and invalid
// values are refused with an error naming source
// and the field.
func ParseCSVSpec(r io.Reader, source string) (CSVSpec, error) {
	var s CSVSpec
	b, err := io.ReadAll(io.LimitReader(r, strictjson.MaxFileBytes+1))
	if err != nil {
		return CSVSpec{}, fmt.Errorf("data: CSV spec %s: %w", source, err)
	}
	if len(b) > strictjson.MaxFileBytes {
		return CSVSpec{}, fmt.Errorf("data: CSV spec %s: more than %d bytes, at most %d", source, strictjson.MaxFileBytes, strictjson.MaxFileBytes)
	}
	if json.Valid(b) {
		if err := strictjson.Duplicate(b); err != nil {
			return CSVSpec{}, fmt.Errorf("data: CSV spec %s: %w", source, err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return CSVSpec{}, fmt.Errorf("data: CSV spec %s: field %q: %v", source, te.Field, err)
		}
		return CSVSpec{}, fmt.Errorf("data: CSV spec %s: %w", source, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return CSVSpec{}, fmt.Errorf("data: CSV spec %s: data after the JSON object", source)
	}
	if err := s.Validate(); err != nil {
		return CSVSpec{}, fmt.Errorf("data: CSV spec %s: %w", source, err)
	}
	return s, nil
}

// Validate checks the spec on its own (whether its columns exist is checked
// against the file by [ReadCSV]). Errors name the JSON field.
func (s CSVSpec) Validate() error {
	if len(s.Name) > MaxNameLen {
		return fmt.Errorf("name: %q… is %d bytes long, at most %d (it names run directories)", s.Name[:32], len(s.Name), MaxNameLen)
	}
	if s.Name != "" && !validDataName(s.Name) {
		return fmt.Errorf("name: %q must use only a-z, 0-9, '-' and '_' (it names run directories)", s.Name)
	}
	if s.Delimiter != "" {
		r, n := utf8.DecodeRuneInString(s.Delimiter)
		if n != len(s.Delimiter) || r == '"' || r == utf8.RuneError || r != '\t' && unicode.IsSpace(r) {
			return fmt.Errorf("delimiter: %q must be one character other than a quote, a space or a line break (a tab is fine)", s.Delimiter)
		}
	}
	noTime := s.Time == TimeNone
	if s.TimeLayout != "" && noTime {
		return fmt.Errorf("time_layout: %q given, but time is %q", s.TimeLayout, TimeNone)
	}
	if s.Step != "" {
		if noTime {
			return fmt.Errorf("step: %q given, but time is %q (without timestamps there is no step to check)", s.Step, TimeNone)
		}
		if _, err := ParseStep(s.Step); err != nil {
			return fmt.Errorf("step: %w", err)
		}
	}
	switch s.Calendar {
	case "", CalendarAuto, CalendarNone:
	default:
		return fmt.Errorf("calendar: %q, want %q or %q", s.Calendar, CalendarAuto, CalendarNone)
	}
	if s.Calendar == CalendarAuto && noTime {
		return fmt.Errorf("calendar: %q needs a time column, but time is %q", CalendarAuto, TimeNone)
	}
	seen := map[string]string{}
	if s.Time != TimeAuto && !noTime {
		seen[s.Time] = "time"
	}
	for _, f := range []struct {
		field string
		cols  []string
	}{{"state", s.State}, {"drive", s.Drive}} {
		for i, c := range f.cols {
			if strings.TrimSpace(c) == "" {
				return fmt.Errorf("%s[%d]: empty column name", f.field, i)
			}
			if other, dup := seen[c]; dup {
				return fmt.Errorf("%s[%d]: column %q is already the %s column", f.field, i, c, other)
			}
			seen[c] = f.field
		}
	}
	if s.UnitLen < 0 {
		return fmt.Errorf("unit_len: %d, must be >= 1 (0: %d)", s.UnitLen, DefaultCSVUnitLen)
	}
	if err := s.Split.validate(); err != nil {
		return err
	}
	if s.Split.byDates() && noTime {
		return fmt.Errorf("split.val_start: a split by dates needs a time column, but time is %q", TimeNone)
	}
	return nil
}

func (sp CSVSplit) byFractions() bool { return sp.Train != 0 || sp.Val != 0 || sp.Test != 0 }
func (sp CSVSplit) byDates() bool     { return sp.ValStart != "" || sp.TestStart != "" || sp.End != "" }
func (sp CSVSplit) byRows() bool      { return sp.TrainRows != 0 || sp.ValRows != 0 || sp.TestRows != 0 }

// IsZero reports whether no split is given (the default applies).
func (sp CSVSplit) IsZero() bool { return !sp.byFractions() && !sp.byDates() && !sp.byRows() }

func (sp CSVSplit) validate() error {
	n := 0
	for _, on := range []bool{sp.byFractions(), sp.byDates(), sp.byRows()} {
		if on {
			n++
		}
	}
	if n > 1 {
		return errors.New("split: give fractions (train, val, test), dates (val_start, test_start[, end]) or rows (train_rows, val_rows, test_rows), not a mix")
	}
	switch {
	case sp.byFractions():
		for _, f := range []struct {
			name string
			v    float64
		}{{"train", sp.Train}, {"val", sp.Val}, {"test", sp.Test}} {
			if !(f.v > 0 && f.v < 1) {
				return fmt.Errorf("split.%s: %v, must be in (0, 1)", f.name, f.v)
			}
		}
		if sum := sp.Train + sp.Val + sp.Test; sum > 1+1e-9 {
			return fmt.Errorf("split: train + val + test = %.4g exceeds 1", sum)
		}
	case sp.byDates():
		if sp.ValStart == "" || sp.TestStart == "" {
			return errors.New("split: a split by dates needs both val_start and test_start")
		}
		var ts [3]time.Time
		for i, f := range []struct{ name, v string }{{"val_start", sp.ValStart}, {"test_start", sp.TestStart}, {"end", sp.End}} {
			if f.v == "" {
				continue
			}
			t, err := parseAnyTime(f.v)
			if err != nil {
				return fmt.Errorf("split.%s: %w", f.name, err)
			}
			ts[i] = t
		}
		if !ts[0].Before(ts[1]) {
			return fmt.Errorf("split.test_start: %s is not after val_start %s", sp.TestStart, sp.ValStart)
		}
		if sp.End != "" && !ts[1].Before(ts[2]) {
			return fmt.Errorf("split.end: %s is not after test_start %s", sp.End, sp.TestStart)
		}
	case sp.byRows():
		for _, f := range []struct {
			name string
			v    int
		}{{"train_rows", sp.TrainRows}, {"val_rows", sp.ValRows}, {"test_rows", sp.TestRows}} {
			if f.v < 1 {
				return fmt.Errorf("split.%s: %d, must be >= 1", f.name, f.v)
			}
		}
		// Their sum is a row index: one that overflows an int would wrap to a small or negative
		// bound and index out of range.
		if sp.TrainRows > math.MaxInt-sp.ValRows || sp.TrainRows+sp.ValRows > math.MaxInt-sp.TestRows {
			return fmt.Errorf("split: train_rows + val_rows + test_rows (%d + %d + %d) overflows; give the row counts of the file", sp.TrainRows, sp.ValRows, sp.TestRows)
		}
	}
	return nil
}

// String describes the split in one line, for errors and logs.
func (sp CSVSplit) String() string {
	switch {
	case sp.byDates():
		end := ""
		if sp.End != "" {
			end = ", end " + sp.End
		}
		return fmt.Sprintf("by dates (validation from %s, test from %s%s)", sp.ValStart, sp.TestStart, end)
	case sp.byRows():
		return fmt.Sprintf("by rows (%d/%d/%d)", sp.TrainRows, sp.ValRows, sp.TestRows)
	}
	sp = sp.withDefaults()
	return fmt.Sprintf("by fractions (%g/%g/%g)", sp.Train, sp.Val, sp.Test)
}

func (sp CSVSplit) withDefaults() CSVSplit {
	if sp.IsZero() {
		sp.Train, sp.Val, sp.Test = DefaultTrainFrac, DefaultValFrac, DefaultTestFrac
	}
	return sp
}

// parseAnyTime parses a timestamp or date in one of CSVTimeLayouts.
func parseAnyTime(s string) (time.Time, error) {
	for _, l := range CSVTimeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q matches none of the layouts %s", s, strings.Join(CSVTimeLayouts, ", "))
}

// MaxNameLen bounds a data set's name: it names a directory level
// (csv-<name>-<hash8>), which file systems limit to 255 bytes.
const MaxNameLen = 64

// CSVName is the default data-set name of a file: its base name without
// .gz, .csv, .tsv or .txt, lower-cased, with every character outside a-z,
// 0-9, '-' and '_' replaced by '-', cut to MaxNameLen bytes.
func CSVName(path string) string {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, ".gz")
	for _, ext := range []string{".csv", ".tsv", ".txt"} {
		base = strings.TrimSuffix(base, ext)
	}
	b := []byte(strings.ToLower(base))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '-'
		}
	}
	if len(b) > MaxNameLen {
		b = b[:MaxNameLen]
	}
	if name := strings.Trim(string(b), "-"); name != "" {
		return name
	}
	return "data"
}

func validDataName(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	})
}
