package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// CSVTable is a parsed time-series CSV file: one row per time step, in file
// order, before any split or standardisation.
type CSVTable struct {
	Path   string
	Time   []time.Time   // the timestamps (nil without a time column)
	Values [][]float64   // Values[i] are the state columns of row i, in Spec.State order
	Drive  [][]float64   // the observed-drive columns of row i, in Spec.Drive order (nil without)
	Step   time.Duration // the checked step between rows (0 without a time column)
	Lines  []int         // Lines[i] is the 1-based line of row i in the file (nil for tables built in memory)

	// Spec is the spec resolved against the file: the time column named
	// (or TimeNone), the layout, step, state and drive columns, delimiter,
	// split and unit length explicit. Reading the file again with it gives
	// the same table.
	Spec CSVSpec

	// File is the file's base name and the SHA-256 of exactly the bytes read (ReadCSV only), so
	// a run can tell whether its data file has changed.
	File FileDigest
}

// ReadCSV parses a time-series CSV file, gzip-compressed (detected by its
// magic bytes, whatever its name) or plain, as spec says. It is strict, and
// every refusal names the file, the 1-based line and the field: a header
// lacking a spec column, naming a column twice (after trimming spaces),
// leaving a column other than the first unnamed or not in UTF-8, a row with
// the wrong number of fields, an empty, unparsable or non-finite number, one
// of magnitude above [MaxCSVMagnitude], an unparsable timestamp, a blank line
// inside the data, fewer than two rows, or a row that does not follow the
// previous one by the step (a gap, an irregular step, a duplicate or an
// out-of-order row). Forecasting across a silent gap would teach the model
// a transition that never happened; filling or dropping data is the user's
// decision, so it is never done here.
func ReadCSV(path string, spec CSVSpec) (*CSVTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	tab, err := ParseCSV(path, io.TeeReader(f, h), spec)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(h, f); err != nil { // hash the whole file, trailing bytes too
		return nil, fmt.Errorf("data: %s: %w", path, err)
	}
	tab.File = FileDigest{Name: filepath.Base(path), SHA256: hex.EncodeToString(h.Sum(nil))}
	return tab, nil
}

// ParseCSV is [ReadCSV] on a reader; path only names the source in errors
// and in the table (and gives the default name).
func ParseCSV(path string, r io.Reader, spec CSVSpec) (tab *CSVTable, err error) {
	if err := spec.Validate(); err != nil {
		return nil, fmt.Errorf("data: CSV spec for %s: %w", path, err)
	}
	br := bufio.NewReader(r)
	var in io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		gz, gzErr := gzip.NewReader(br)
		if gzErr != nil {
			return nil, fmt.Errorf("data: %s: %w", path, gzipFault(gzErr))
		}
		defer gz.Close()
		rec := &recordErr{r: gz}
		in = rec
		defer func() {
			if rec.err != nil {
				// The decompressor failed first: whatever the parser made of the cut-off text is a symptom.
				tab, err = nil, fmt.Errorf("data: %s: %w", path, gzipFault(rec.err))
			}
		}()
	}
	// A UTF-8 byte-order mark (as spreadsheets write) would make a quoted first header malformed.
	bom := bufio.NewReader(in)
	if b, _ := bom.Peek(3); bytes.Equal(b, []byte("\ufeff")) {
		bom.Discard(3)
	}
	p := &csvParser{path: path, spec: spec}
	return p.parse(bom)
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

// csvParser holds the state of one parse: the resolved columns and the
// line of every row (for the step check, which runs after all rows are read
// so that the step can be inferred from all of them).
type csvParser struct {
	path    string
	spec    CSVSpec
	header  []string
	timeCol int // -1: none
	state   []int
	drive   []int
	layout  string
	lines   []int
}

func (p *csvParser) errAt(line int, format string, args ...any) error {
	return fmt.Errorf("data: %s line %d: %s", p.path, line, fmt.Sprintf(format, args...))
}

// field names a field for errors: its 1-based position and header name.
func (p *csvParser) field(col int) string {
	if p.header[col] == "" {
		return fmt.Sprintf("field %d (unnamed)", col+1)
	}
	return fmt.Sprintf("field %d (%s)", col+1, p.header[col])
}

func (p *csvParser) parse(in io.Reader) (*CSVTable, error) {
	cr := csv.NewReader(in)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	if p.spec.Delimiter != "" {
		cr.Comma = []rune(p.spec.Delimiter)[0]
	}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, p.errAt(1, "empty file, want a header line naming the columns")
	}
	if err != nil {
		return nil, p.readErr(err, 1)
	}
	raw := slices.Clone(header)
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	p.header = header
	if err := p.checkHeader(raw); err != nil {
		return nil, err
	}
	if err := p.resolveColumns(); err != nil {
		return nil, err
	}
	tab := &CSVTable{Path: p.path}
	prevLine, blankAt := 1, 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, p.readErr(err, prevLine)
		}
		line, _ := cr.FieldPos(0)
		if blankAt == 0 && line > prevLine+1 {
			blankAt = prevLine + 1 // encoding/csv skips empty lines
		}
		prevLine = line
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			if blankAt == 0 {
				blankAt = line
			}
			continue
		}
		if blankAt != 0 {
			return nil, p.errAt(blankAt, "blank line inside the data")
		}
		if err := p.row(tab, line, rec); err != nil {
			return nil, err
		}
	}
	if len(tab.Values) == 0 {
		return nil, p.errAt(2, "no data rows after the header")
	}
	if tab.Time != nil {
		if err := p.checkStep(tab); err != nil {
			return nil, err
		}
	}
	tab.Spec = p.resolvedSpec(tab)
	tab.Lines = p.lines
	return tab, nil
}

// readErr reports an error of the CSV reader: a malformed quote on its line, anything else (a
// corrupt gzip stream) after the last line read.
func (p *csvParser) readErr(err error, after int) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if pe.StartLine != pe.Line {
			return p.errAt(pe.StartLine, "a quoted field opened on this line is not closed properly (read to line %d, column %d: %v)", pe.Line, pe.Column, pe.Err)
		}
		return p.errAt(pe.Line, "column %d: %v", pe.Column, pe.Err)
	}
	return fmt.Errorf("data: %s after line %d: %w", p.path, after, err)
}

// checkHeader refuses a header whose names cannot identify its columns: a name that is not UTF-8
// (stored in JSON it would become U+FFFD, and the run could not be matched with its data again), a
// name given twice once surrounding spaces are trimmed (which of the two would be read?), and an
// empty name other than the first column's (the index pandas writes, read as the time column or
// ignored with time "none"), which would otherwise be dropped silently. raw is the header as
// written, so a name that differs only by a space is shown as it is.
func (p *csvParser) checkHeader(raw []string) error {
	first := map[string]int{}
	for i, h := range p.header {
		if !utf8.ValidString(h) {
			return p.errAt(1, "bad header: field %d (%q) is not valid UTF-8; save the file as UTF-8", i+1, raw[i])
		}
		if h == "" {
			if i > 0 {
				return p.errAt(1, "bad header: field %d has no name; name every column (only the first may be unnamed, as pandas writes its index)", i+1)
			}
			continue
		}
		if j, dup := first[h]; dup {
			written := ""
			if raw[j] != raw[i] {
				written = fmt.Sprintf(", written %q and %q", raw[j], raw[i])
			}
			return p.errAt(1, "bad header: column %q appears twice (fields %d and %d)%s; name each column once", h, j+1, i+1, written)
		}
		first[h] = i
	}
	return nil
}

// resolveColumns finds the spec's columns in the header.
func (p *csvParser) resolveColumns() error {
	index := func(name, role string) (int, error) {
		i := slices.Index(p.header, name)
		if i < 0 {
			return 0, p.errAt(1, "bad header: no %s column %q (columns: %s)", role, name, strings.Join(p.header, ", "))
		}
		if j := slices.Index(p.header[i+1:], name); j >= 0 {
			return 0, p.errAt(1, "bad header: column %q appears twice (fields %d and %d)", name, i+1, i+j+2)
		}
		return i, nil
	}
	p.timeCol = -1
	switch t := p.spec.Time; t {
	case TimeNone:
	case TimeAuto:
		// An unnamed first column is the index pandas writes (df.to_csv), usually the timestamps.
		if h := strings.ToLower(p.header[0]); h == "" || slices.Contains(autoTimeNames, h) {
			p.timeCol = 0
		}
	default:
		i, err := index(t, "time")
		if err != nil {
			return err
		}
		p.timeCol = i
	}
	if p.timeCol < 0 && p.spec.Time == TimeAuto {
		for _, need := range []struct {
			on   bool
			what string
		}{{p.spec.Split.byDates(), "a split by dates"}, {p.spec.Step != "", "step"}, {p.spec.TimeLayout != "", "time_layout"}, {p.spec.Calendar == CalendarAuto, "calendar \"auto\""}} {
			if need.on {
				return p.errAt(1, "%s needs a time column, but the first column %q is not named %s: name the time column (time, -time)",
					need.what, p.header[0], strings.Join(autoTimeNames, ", "))
			}
		}
	}
	used := map[int]bool{p.timeCol: true}
	for _, name := range p.spec.Drive {
		i, err := index(name, "drive")
		if err != nil {
			return err
		}
		if used[i] {
			return p.errAt(1, "column %q is the time column and a drive column", name)
		}
		p.drive, used[i] = append(p.drive, i), true
	}
	if len(p.spec.State) == 0 {
		for i, h := range p.header {
			if !used[i] && h != "" {
				p.state = append(p.state, i)
			}
		}
		if len(p.state) == 0 {
			return p.errAt(1, "no state column left (columns: %s)", strings.Join(p.header, ", "))
		}
		return nil
	}
	for _, name := range p.spec.State {
		i, err := index(name, "state")
		if err != nil {
			return err
		}
		if used[i] {
			return p.errAt(1, "column %q is used twice (time, state or drive)", name)
		}
		p.state, used[i] = append(p.state, i), true
	}
	return nil
}

// row parses one data record into tab.
func (p *csvParser) row(tab *CSVTable, line int, rec []string) error {
	if len(rec) != len(p.header) {
		return p.errAt(line, "%d fields, want %d (%s)", len(rec), len(p.header), strings.Join(p.header, ","))
	}
	if p.timeCol >= 0 {
		ts, err := p.parseTime(strings.TrimSpace(rec[p.timeCol]))
		if err != nil {
			return p.errAt(line, "%s: %v", p.field(p.timeCol), err)
		}
		tab.Time = append(tab.Time, ts)
	}
	vals := func(cols []int) ([]float64, error) {
		out := make([]float64, len(cols))
		for j, c := range cols {
			s := strings.TrimSpace(rec[c])
			if s == "" {
				return nil, p.errAt(line, "%s: missing value (empty field); fill or drop the row before training", p.field(c))
			}
			v, err := strconv.ParseFloat(s, 64)
			if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
				return nil, p.errAt(line, "%s: value %q: %v", p.field(c), s, checkMagnitude(v))
			}
			if err != nil {
				return nil, p.errAt(line, "%s: invalid number %q", p.field(c), s)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, p.errAt(line, "%s: non-finite value %q", p.field(c), s)
			}
			if err := checkMagnitude(v); err != nil {
				return nil, p.errAt(line, "%s: value %q: %v", p.field(c), s, err)
			}
			out[j] = v
		}
		return out, nil
	}
	x, err := vals(p.state)
	if err != nil {
		return err
	}
	tab.Values = append(tab.Values, x)
	if len(p.drive) > 0 {
		d, err := vals(p.drive)
		if err != nil {
			return err
		}
		tab.Drive = append(tab.Drive, d)
	}
	p.lines = append(p.lines, line)
	return nil
}

// parseTime parses with the spec's layout, or detects the layout on the
// first row and then holds every row to it (a file mixing layouts is more
// likely broken than deliberate).
func (p *csvParser) parseTime(s string) (time.Time, error) {
	if p.layout == "" {
		p.layout = p.spec.TimeLayout
	}
	if p.layout != "" {
		t, err := time.Parse(p.layout, s)
		if err != nil {
			return time.Time{}, fmt.Errorf("timestamp %q does not match the layout %q", s, p.layout)
		}
		return t, nil
	}
	for _, l := range CSVTimeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			p.layout = l
			return t, nil
		}
	}
	hint := ""
	if p.header[p.timeCol] == "" {
		hint = "; an unnamed first column is read as the time column, as pandas writes its index: time \"none\" (-time none) ignores it"
	}
	return time.Time{}, fmt.Errorf("timestamp %q matches none of the layouts %s (set time_layout)%s", s, strings.Join(CSVTimeLayouts, ", "), hint)
}

// checkStep sets tab.Step (the spec's, or the most common difference
// between consecutive rows) and names the first row that does not follow
// its predecessor by exactly that step.
func (p *csvParser) checkStep(tab *CSVTable) error {
	ts := tab.Time
	if len(ts) < 2 {
		return p.errAt(p.lines[0], "only 1 data row: need at least 2 (and enough for the split into units)")
	}
	for i := 1; i < len(ts); i++ {
		if !ts[i].After(ts[i-1]) {
			return p.errAt(p.lines[i], "%s: %s does not follow %s: not after it (a duplicate or out-of-order row)",
				p.field(p.timeCol), ts[i].Format(p.layout), ts[i-1].Format(p.layout))
		}
	}
	step, err := time.Duration(0), error(nil)
	if p.spec.Step != "" {
		step, err = ParseStep(p.spec.Step)
		if err != nil {
			return err // validated
		}
	} else {
		step = modeStep(ts)
	}
	tab.Step = step
	for i := 1; i < len(ts); i++ {
		d := ts[i].Sub(ts[i-1])
		if d == step {
			continue
		}
		what := fmt.Sprintf("an irregular step of %s", FormatStep(d))
		if d%step == 0 {
			missing := "rows"
			if d/step == 2 {
				missing = "row"
			}
			what = fmt.Sprintf("a gap of %s (%d missing %s)", FormatStep(d), d/step-1, missing)
		}
		how := "inferred"
		if p.spec.Step != "" {
			how = "given"
		}
		return p.errAt(p.lines[i], "%s: %s does not follow %s by the step %s (%s): %s after it",
			p.field(p.timeCol), ts[i].Format(p.layout), ts[i-1].Format(p.layout), FormatStep(step), how, what)
	}
	return nil
}

// resolvedSpec is the spec with everything the file decided made explicit.
func (p *csvParser) resolvedSpec(tab *CSVTable) CSVSpec {
	s := p.spec
	if s.Name == "" {
		s.Name = CSVName(p.path)
	}
	s.Time, s.TimeLayout, s.Step = TimeNone, "", ""
	if p.timeCol >= 0 {
		s.Time, s.TimeLayout, s.Step = p.header[p.timeCol], p.layout, FormatStep(tab.Step)
	}
	if s.Calendar == "" {
		s.Calendar = CalendarNone
		if p.timeCol >= 0 {
			s.Calendar = CalendarAuto
		}
	}
	names := func(cols []int) []string {
		var out []string
		for _, c := range cols {
			out = append(out, p.header[c])
		}
		return out
	}
	s.State, s.Drive = names(p.state), names(p.drive)
	if s.Delimiter == "" {
		s.Delimiter = ","
	}
	s.Split = s.Split.withDefaults()
	if s.UnitLen == 0 {
		s.UnitLen = DefaultCSVUnitLen
	}
	return s
}
