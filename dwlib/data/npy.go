package data

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// ReadMatrix reads a time × channels matrix from a .npy file (float32 or
// float64, little-endian, C or Fortran order, 2-D) or a CSV file (comma-
// separated numbers, an optional header row of names). Every value must be
// finite. Errors name the file and what is wrong with it.
func ReadMatrix(path string) ([][]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	var rows [][]float64
	if strings.HasSuffix(strings.ToLower(path), ".npy") {
		rows, err = parseNPY(b)
	} else {
		rows, err = parseCSVMatrix(b)
	}
	if err != nil {
		return nil, fmt.Errorf("data: %s: %w", path, err)
	}
	return rows, nil
}

var (
	npyMagic   = []byte("\x93NUMPY")
	npyDescr   = regexp.MustCompile(`'descr'\s*:\s*'([^']*)'`)
	npyFortran = regexp.MustCompile(`'fortran_order'\s*:\s*(True|False)`)
	npyShape   = regexp.MustCompile(`'shape'\s*:\s*\(([^)]*)\)`)
)

// parseNPY decodes the .npy format (versions 1-3) for 2-D float arrays.
func parseNPY(b []byte) ([][]float64, error) {
	if len(b) < 10 || !bytes.Equal(b[:6], npyMagic) {
		return nil, fmt.Errorf("not a .npy file (no \\x93NUMPY magic)")
	}
	major := b[6]
	var hlen, off int
	switch major {
	case 1:
		hlen, off = int(binary.LittleEndian.Uint16(b[8:10])), 10
	case 2, 3:
		if len(b) < 12 {
			return nil, fmt.Errorf("truncated .npy header")
		}
		hlen, off = int(binary.LittleEndian.Uint32(b[8:12])), 12
	default:
		return nil, fmt.Errorf(".npy format version %d is not supported (1, 2 or 3)", major)
	}
	if off+hlen > len(b) {
		return nil, fmt.Errorf("truncated .npy header: %d header bytes announced, %d in the file", hlen, len(b)-off)
	}
	header := string(b[off : off+hlen])
	payload := b[off+hlen:]
	m := npyDescr.FindStringSubmatch(header)
	if m == nil {
		return nil, fmt.Errorf(".npy header has no 'descr': %q", header)
	}
	var size int
	switch m[1] {
	case "<f8":
		size = 8
	case "<f4":
		size = 4
	default:
		return nil, fmt.Errorf(".npy dtype %q is not supported: save the matrix as little-endian float32 ('<f4') or float64 ('<f8')", m[1])
	}
	fortran := false
	if f := npyFortran.FindStringSubmatch(header); f == nil {
		return nil, fmt.Errorf(".npy header has no 'fortran_order': %q", header)
	} else {
		fortran = f[1] == "True"
	}
	s := npyShape.FindStringSubmatch(header)
	if s == nil {
		return nil, fmt.Errorf(".npy header has no 'shape': %q", header)
	}
	var shape []int
	for _, p := range strings.Split(s[1], ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return nil, fmt.Errorf(".npy shape (%s) is not a list of sizes", s[1])
		}
		shape = append(shape, v)
	}
	if len(shape) != 2 {
		return nil, fmt.Errorf(".npy shape (%s) is %d-D; want a 2-D (time, channels) matrix", s[1], len(shape))
	}
	T, C := shape[0], shape[1]
	if T == 0 || C == 0 {
		return nil, fmt.Errorf(".npy shape (%d, %d) is empty", T, C)
	}
	if T > maxMatrixValues/C {
		return nil, fmt.Errorf(".npy shape (%d, %d) has more than %d values", T, C, maxMatrixValues)
	}
	if want := T * C * size; len(payload) != want {
		return nil, fmt.Errorf(".npy data has %d bytes, shape (%d, %d) of %s needs %d (truncated or not this shape)", len(payload), T, C, m[1], want)
	}
	rows := make([][]float64, T)
	for t := range rows {
		rows[t] = make([]float64, C)
	}
	for i := range T * C {
		var v float64
		if size == 8 {
			v = math.Float64frombits(binary.LittleEndian.Uint64(payload[i*8:]))
		} else {
			v = float64(math.Float32frombits(binary.LittleEndian.Uint32(payload[i*4:])))
		}
		t, c := i/C, i%C
		if fortran {
			t, c = i%T, i/T
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("row %d column %d: non-finite value %v", t, c, v)
		}
		rows[t][c] = v
	}
	return rows, nil
}

// maxMatrixValues bounds a matrix file's size (2^31 values, 16 GiB as float64).
const maxMatrixValues = 1 << 31

// parseCSVMatrix reads comma-separated numbers; a first row that is not all
// numbers is a header and skipped. Rows must have the same width.
func parseCSVMatrix(b []byte) ([][]float64, error) {
	var rows [][]float64
	for i, line := range strings.Split(strings.TrimRight(string(b), "\r\n"), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			return nil, fmt.Errorf("line %d is empty", i+1)
		}
		cells := strings.Split(line, ",")
		row := make([]float64, len(cells))
		header := false
		for j, c := range cells {
			v, err := strconv.ParseFloat(strings.TrimSpace(c), 64)
			if err != nil {
				if i == 0 {
					header = true
					break
				}
				return nil, fmt.Errorf("line %d column %d: %q is not a number", i+1, j+1, c)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("line %d column %d: non-finite value %q", i+1, j+1, c)
			}
			row[j] = v
		}
		if header {
			continue
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, fmt.Errorf("line %d has %d columns, the first data row %d", i+1, len(row), len(rows[0]))
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no data rows")
	}
	return rows, nil
}
