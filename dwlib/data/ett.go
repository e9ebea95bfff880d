package data

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ETTColumns is the exact header of the ETT-small CSV files.
var ETTColumns = []string{"date", "HUFL", "HULL", "MUFL", "MULL", "LUFL", "LULL", "OT"}

// ETT geometry (Appendix F.1). The files have one row per 15 minutes; the
// standard Informer chronological partition counts a month as 30 days, so 12
// months = 12*30*96 rows. Train is rows [0, 34560), val [34560, 46080), test
// [46080, 57600); the remaining rows are unused. With 256-step
// non-overlapping units this gives the paper's 135/45/45 units.
const (
	ETTStateDim   = 7
	ETTUnitLen    = 256
	ETTRowsPerDay = 96
	ETTTrainRows  = 12 * 30 * ETTRowsPerDay
	ETTValRows    = 4 * 30 * ETTRowsPerDay
	ETTTestRows   = 4 * 30 * ETTRowsPerDay
	ettStep       = 15 * time.Minute
	ettTimeLayout = "2006-01-02 15:04:05"
)

// ETTTable is a parsed ETT CSV: Values[i] are the 7 state columns (HUFL ...
// OT, file order) at Time[i]. The ETT files are read by the general CSV
// path; this name remains for the testbed's callers.
type ETTTable = CSVTable

// ETTSpec is the ETT testbeds as a [CSVSpec]: the seven load and oil
// temperature columns as state, the "date" column at exactly 15 minutes,
// the six calendar coordinates as drive, the Informer 12/4/4-month split
// by rows, and units of unitLen rows. The ETT testbeds are this
// configuration of the general CSV path and nothing more.
func ETTSpec(name string, unitLen int) CSVSpec {
	return CSVSpec{
		Name: name, Time: ETTColumns[0], TimeLayout: ettTimeLayout, Step: FormatStep(ettStep),
		State: ETTColumns[1:], Calendar: CalendarAuto,
		Split:   CSVSplit{TrainRows: ETTTrainRows, ValRows: ETTValRows, TestRows: ETTTestRows},
		UnitLen: unitLen,
	}
}

// ReadETT parses an ETT CSV file, gzip-compressed (detected by its magic
// bytes) or plain, with [ReadCSV] and [ETTSpec]. It is strict: a header
// lacking an ETT column, a row with the wrong number of fields, an
// unparsable or non-finite number, an unparsable date, or a gap in the
// 15-minute timeline yields an error naming the file, the 1-based line and
// the field. The data are read in place and never copied into the project
// (the ETT licence forbids shipping modified copies).
func ReadETT(path string) (*ETTTable, error) {
	return ReadCSV(path, ETTSpec("", ETTUnitLen))
}

// ETTDataset cuts a parsed table into the chronological 12/4/4-month splits,
// each divided into non-overlapping units of unitLen steps (trailing partial
// units dropped), with the 6 calendar coordinates as observed drive. State
// and calendar are standardised separately with training-unit statistics.
// Split records global unit indices counted from row 0 (train 0..134, val
// 135..179, test 180..224 for unitLen 256).
func ETTDataset(name string, tab *ETTTable, unitLen int) (*Dataset, error) {
	if unitLen < 1 {
		return nil, fmt.Errorf("data: %s: unit length must be >= 1, got %d", name, unitLen)
	}
	t := *tab
	t.Spec = ETTSpec(name, unitLen)
	return t.Dataset()
}

// ETTAvailable reports whether dir ("": [DefaultETTDir]) holds both ETT files, so a notebook or
// sweep can skip ETTm1/ETTm2 with a clear message instead of failing part-way. The error names
// the directory and the file that is missing.
func ETTAvailable(dir string) error {
	if dir == "" {
		d, err := DefaultETTDir()
		if err != nil {
			return err
		}
		dir = d
	}
	for _, name := range []string{"ettm1", "ettm2"} {
		if _, err := ettFile(dir, name); err != nil {
			return err
		}
	}
	return nil
}

// ettFile finds ETTm1.csv.gz (or plain .csv) in dir for "ettm1"/"ettm2".
func ettFile(dir, name string) (string, error) {
	base := "ETTm" + strings.TrimPrefix(name, "ettm")
	for _, ext := range []string{".csv.gz", ".csv"} {
		p := filepath.Join(dir, base+ext)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", needsSetting(fmt.Errorf("data: %s: neither %s.csv.gz nor %s.csv found in %s", name, base, base, dir), "ETTDir")
}
