package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
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
// OT, file order) at Time[i]. File is the name and SHA-256 of the bytes read.
type ETTTable struct {
	Path   string
	File   FileDigest
	Time   []time.Time
	Values [][]float64
}

// ReadETT parses an ETT CSV file, gzip-compressed (detected by its magic
// bytes) or plain. It is strict: a wrong header, a row with the wrong
// number of fields, an unparsable or non-finite number, an unparsable date,
// or a gap in the 15-minute timeline yields an error naming the file, the
// 1-based line and the field; a gzip stream that ends early or fails its
// checksum is reported as a truncated or corrupt file (not as the short row
// it cut). The data are read in place and never copied into the project
// (the ETT licence forbids shipping modified copies). The SHA-256 of exactly
// the bytes parsed is recorded, so a run can tell whether its data file has
// changed.
func ReadETT(path string) (*ETTTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data: ETT: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	br := bufio.NewReader(io.TeeReader(f, h))
	var src io.Reader = br
	var gz *gzip.Reader
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		if gz, err = gzip.NewReader(br); err != nil {
			return nil, fmt.Errorf("data: ETT %s: %w", path, gzipFault(err))
		}
		defer gz.Close()
		src = gz
	}
	rec := &recordErr{r: src}
	tab, err := parseETT(path, rec)
	if gz != nil && rec.err != nil {
		// The decompressor failed first: whatever parseETT made of the cut-off text is a symptom.
		return nil, fmt.Errorf("data: ETT %s: %w", path, gzipFault(rec.err))
	}
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(io.Discard, br); err != nil { // hash the whole file, trailing bytes too
		return nil, fmt.Errorf("data: ETT %s: %w", path, err)
	}
	tab.File = FileDigest{Name: filepath.Base(path), SHA256: hex.EncodeToString(h.Sum(nil))}
	return tab, nil
}

// gzipFault names a decompression error: a stream cut short is a truncated file.
func gzipFault(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("truncated gzip file (the compressed stream ends early: %w); download it again", err)
	}
	return fmt.Errorf("corrupt gzip file (%w); download it again", err)
}

// recordErr passes reads through and remembers the first error other than io.EOF.
type recordErr struct {
	r   io.Reader
	err error
}

func (e *recordErr) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

func parseETT(path string, r io.Reader) (*ETTTable, error) {
	tab := &ETTTable{Path: path}
	sc := bufio.NewScanner(r)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("data: ETT %s line %d: %s", path, line, fmt.Sprintf(format, args...))
	}
	blankAt := 0 // first blank line seen; only trailing blank lines are allowed
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
			if text != strings.Join(ETTColumns, ",") {
				return nil, fail("bad header %q, want %q", text, strings.Join(ETTColumns, ","))
			}
			continue
		}
		if strings.TrimSpace(text) == "" {
			if blankAt == 0 {
				blankAt = line
			}
			continue
		}
		if blankAt != 0 {
			return nil, fmt.Errorf("data: ETT %s line %d: blank line inside the data", path, blankAt)
		}
		fields := strings.Split(text, ",")
		if len(fields) != len(ETTColumns) {
			return nil, fail("%d fields, want %d (%s)", len(fields), len(ETTColumns), strings.Join(ETTColumns, ","))
		}
		ts, err := time.Parse(ettTimeLayout, strings.TrimSpace(fields[0]))
		if err != nil {
			return nil, fail("field 1 (date): %v", err)
		}
		if n := len(tab.Time); n > 0 && !ts.Equal(tab.Time[n-1].Add(ettStep)) {
			return nil, fail("field 1 (date): %s does not follow %s by 15 minutes", fields[0], tab.Time[n-1].Format(ettTimeLayout))
		}
		vals := make([]float64, ETTStateDim)
		for j := range vals {
			s := strings.TrimSpace(fields[j+1])
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fail("field %d (%s): invalid number %q", j+2, ETTColumns[j+1], s)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fail("field %d (%s): non-finite value %q", j+2, ETTColumns[j+1], s)
			}
			vals[j] = v
		}
		tab.Time = append(tab.Time, ts)
		tab.Values = append(tab.Values, vals)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("data: ETT %s after line %d: %w", path, line, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("data: ETT %s line 1: empty file, want header %q", path, strings.Join(ETTColumns, ","))
	}
	return tab, nil
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
	need := ETTTrainRows + ETTValRows + ETTTestRows
	if len(tab.Values) < need {
		return nil, fmt.Errorf("data: %s: %s has %d data rows, the 12/4/4-month split needs %d", name, tab.Path, len(tab.Values), need)
	}
	bounds := [4]int{0, ETTTrainRows, ETTTrainRows + ETTValRows, need}
	var parts [3][]Series
	var idx [3][]int
	unit := 0
	for k := range 3 {
		for start := bounds[k]; start+unitLen <= bounds[k+1]; start += unitLen {
			s := Series{X: make([][]float64, unitLen), Drive: make([][]float64, unitLen)}
			for t := range unitLen {
				s.X[t] = append([]float64(nil), tab.Values[start+t]...)
				s.Drive[t] = CalendarFeatures(tab.Time[start+t])
			}
			parts[k] = append(parts[k], s)
			idx[k] = append(idx[k], unit)
			unit++
		}
		if len(parts[k]) == 0 {
			return nil, fmt.Errorf("data: %s: unit length %d exceeds the %d rows of split %d", name, unitLen, bounds[k+1]-bounds[k], k)
		}
	}
	d, err := NewDataset(name, parts[0], parts[1], parts[2], true)
	if err != nil {
		return nil, err
	}
	d.Split = Split{Train: idx[0], Val: idx[1], Test: idx[2]}
	return d, nil
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
	return "", fmt.Errorf("data: %s: neither %s.csv.gz nor %s.csv found in %s (set Options.ETTDir)", name, base, base, dir)
}
