package data

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeNPY writes rows as a .npy file of the given dtype ("<f4" or "<f8"); fortran stores
// columns first.
func writeNPY(t *testing.T, path string, rows [][]float64, dtype string, fortran bool) {
	t.Helper()
	T, C := len(rows), len(rows[0])
	order := "False"
	if fortran {
		order = "True"
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': (%d, %d), }", dtype, order, T, C)
	for (10+len(header)+1)%64 != 0 {
		header += " "
	}
	header += "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(header)), byte(len(header)>>8))
	b = append(b, header...)
	put := func(v float64) {
		if dtype == "<f4" {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
		} else {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	if fortran {
		for c := range C {
			for r := range T {
				put(rows[r][c])
			}
		}
	} else {
		for _, r := range rows {
			for _, v := range r {
				put(v)
			}
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeCSVMatrix(t *testing.T, path string, rows [][]float64) {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("a,b,c\n")
	for _, r := range rows {
		for j, v := range r {
			if j > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "%g", v)
		}
		sb.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func matrix(T, C int, seed float64) [][]float64 {
	out := make([][]float64, T)
	for t := range out {
		out[t] = make([]float64, C)
		for c := range out[t] {
			out[t][c] = math.Sin(seed+float64(t)*0.1+float64(c)) + 0.01*float64(t%7)
		}
	}
	return out
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Matrices round-trip through .npy (float32 and float64, C and Fortran order) and CSV.
func TestReadMatrix(t *testing.T) {
	dir := t.TempDir()
	want := matrix(5, 3, 1)
	for _, tc := range []struct {
		file, dtype string
		fortran     bool
		tol         float64
	}{
		{"a.npy", "<f8", false, 0}, {"b.npy", "<f4", false, 1e-6}, {"c.npy", "<f8", true, 0}, {"d.csv", "", false, 1e-12},
	} {
		path := filepath.Join(dir, tc.file)
		if tc.dtype == "" {
			writeCSVMatrix(t, path, want)
		} else {
			writeNPY(t, path, want, tc.dtype, tc.fortran)
		}
		got, err := ReadMatrix(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		for r := range want {
			for c := range want[r] {
				if math.Abs(got[r][c]-want[r][c]) > tc.tol {
					t.Fatalf("%s: [%d][%d] = %v, want %v", tc.file, r, c, got[r][c], want[r][c])
				}
			}
		}
	}
}

// Hostile matrix files are refused with the file and the reason.
func TestReadMatrixHostile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.npy")
	writeNPY(t, good, matrix(4, 2, 0), "<f8", false)
	raw, _ := os.ReadFile(good)
	header := func(h string) []byte {
		b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), 0)
		return append(b, h...)
	}
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"truncated.npy", raw[:len(raw)-5], "truncated"},
		{"header-cut.npy", raw[:20], "truncated .npy header"},
		{"int.npy", header("{'descr': '<i8', 'fortran_order': False, 'shape': (1, 1), }\n"), `dtype "<i8"`},
		{"bigendian.npy", header("{'descr': '>f8', 'fortran_order': False, 'shape': (1, 1), }\n"), `dtype ">f8"`},
		{"vector.npy", append(header("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n"), make([]byte, 16)...), "1-D"},
		{"cube.npy", append(header("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 1), }\n"), make([]byte, 8)...), "3-D"},
		{"nan.npy", append(header("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }\n"), binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.NaN()))...), "non-finite"},
		{"text.npy", []byte("hello"), "not a .npy"},
		{"ragged.csv", []byte("1,2\n3\n"), "line 2 has 1 columns"},
		{"word.csv", []byte("1,2\n3,x\n"), `"x" is not a number`},
		{"empty.csv", []byte("a,b\n"), "no data rows"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, tc.body, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadMatrix(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: err = %v, want one naming the file and %q", tc.name, err, tc.want)
		}
	}
	if _, err := ReadMatrix(filepath.Join(dir, "missing.npy")); err == nil || !strings.Contains(err.Error(), "missing.npy") {
		t.Errorf("missing file: %v", err)
	}
}

// A participants manifest loads as the movie-time split of its recordings; a subjects manifest
// as subject units with the listed split.
func TestLoadManifest(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "p"), 0o755)
	T := 400
	writeNPY(t, filepath.Join(dir, "p", "r1.npy"), matrix(T, 3, 0), "<f4", false)
	writeNPY(t, filepath.Join(dir, "p", "r2.npy"), matrix(T, 3, 2), "<f8", false)
	writeCSVMatrix(t, filepath.Join(dir, "stim.csv"), matrix(T, 2, 5)[0:T])
	writeFile(t, filepath.Join(dir, "m.json"), `{"name": "toy", "chunk_len": 50,
		"split": {"val_start": 280, "test_start": 340, "gap": 10},
		"participants": [{"id": "P01", "recordings": [{"data": "p/r1.npy", "stimulus": "stim.csv"}, {"data": "p/r2.npy", "stimulus": "stim.csv"}]}]}`)
	d, err := Load(ManifestPrefix+filepath.Join(dir, "m.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// train [0, 270): 5 chunks of 50; val [280, 330): 1; test [340, 400): 1; two recordings.
	if d.Name != "manifest-toy" || d.StateDim != 3 || d.DriveDim != 2 || len(d.Train) != 10 || len(d.Val) != 2 || len(d.Test) != 2 || d.Subjects {
		t.Fatalf("%s: dims %d/%d, units %d/%d/%d, subjects %v", d.Name, d.StateDim, d.DriveDim, len(d.Train), len(d.Val), len(d.Test), d.Subjects)
	}

	for i := range 6 {
		writeNPY(t, filepath.Join(dir, fmt.Sprintf("s%d.npy", i)), matrix(60, 4, float64(i)), "<f8", false)
	}
	subj := `{"name": "subj", "split": {"train": ["a", "b", "c", "d"], "val": ["e"], "test": ["f"]}, "subjects": [` +
		`{"id": "a", "data": "s0.npy"}, {"id": "b", "data": "s1.npy"}, {"id": "c", "data": "s2.npy"}, {"id": "d", "data": "s3.npy"}, {"id": "e", "data": "s4.npy"}, {"id": "f", "data": "s5.npy"}]}`
	writeFile(t, filepath.Join(dir, "s.json"), subj)
	s, err := Load(ManifestPrefix+filepath.Join(dir, "s.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Subjects || len(s.Train) != 4 || len(s.Val) != 1 || len(s.Test) != 1 || s.Split.Val[0] != 4 || s.Train[0].Len() != 60 {
		t.Errorf("subjects: %v, %d/%d/%d, split %+v", s.Subjects, len(s.Train), len(s.Val), len(s.Test), s.Split)
	}
}

// Hostile manifests are refused naming the manifest, the field and, for data, the file.
func TestManifestHostile(t *testing.T) {
	dir := t.TempDir()
	writeNPY(t, filepath.Join(dir, "ok.npy"), matrix(400, 3, 0), "<f8", false)
	writeNPY(t, filepath.Join(dir, "short.npy"), matrix(300, 3, 0), "<f8", false)
	writeNPY(t, filepath.Join(dir, "wide.npy"), matrix(400, 4, 0), "<f8", false)
	writeNPY(t, filepath.Join(dir, "stim.npy"), matrix(399, 2, 0), "<f8", false)
	full, _ := os.ReadFile(filepath.Join(dir, "ok.npy"))
	os.WriteFile(filepath.Join(dir, "cut.npy"), full[:len(full)-8], 0o644)
	rec := func(files ...string) string {
		var parts []string
		for _, f := range files {
			parts = append(parts, `{"data": "`+f+`"}`)
		}
		return `"participants": [{"id": "P", "recordings": [` + strings.Join(parts, ",") + `]}]`
	}
	split := `"split": {"val_start": 280, "test_start": 340, "gap": 10}, "chunk_len": 50`
	for _, tc := range []struct {
		name, body string
		opt        Options
		want       []string
	}{
		{"not-json", `{"name": `, Options{}, []string{"unexpected EOF"}},
		{"unknown-field", `{"name": "x", "chunks": 5, ` + rec("ok.npy") + `}`, Options{}, []string{`unknown field "chunks"`}},
		{"bad-name", `{"name": "X Y", ` + rec("ok.npy") + `}`, Options{}, []string{"field name"}},
		{"both", `{"name": "x", ` + rec("ok.npy") + `, "subjects": [{"id": "a", "data": "ok.npy"}]}`, Options{}, []string{"either participants or subjects"}},
		{"no-data", `{"name": "x", ` + rec("") + `}`, Options{}, []string{"participants[0].recordings[0].data is empty"}},
		{"missing-file", `{"name": "x", ` + split + `, ` + rec("nope.npy") + `}`, Options{}, []string{"participants[0].recordings[0].data", "nope.npy"}},
		{"truncated", `{"name": "x", ` + split + `, ` + rec("ok.npy", "cut.npy") + `}`, Options{}, []string{"participants[0].recordings[1].data", "cut.npy", "truncated"}},
		{"unequal-length", `{"name": "x", ` + split + `, ` + rec("ok.npy", "short.npy") + `}`, Options{}, []string{"recordings[1] has 300 steps"}},
		{"unequal-width", `{"name": "x", ` + split + `, ` + rec("ok.npy", "wide.npy") + `}`, Options{}, []string{"recordings[1] has 4 channels"}},
		{"stimulus-rows", `{"name": "x", ` + split + `, "participants": [{"id": "P", "recordings": [{"data": "ok.npy", "stimulus": "stim.npy"}]}]}`, Options{}, []string{"stimulus stim.npy has 399 rows"}},
		{"split-order", `{"name": "x", "split": {"val_start": 300, "test_start": 200}, ` + rec("ok.npy") + `}`, Options{}, []string{"split.val_start 300"}},
		{"split-too-short", `{"name": "x", "chunk_len": 200, "split": {"val_start": 280, "test_start": 340}, ` + rec("ok.npy") + `}`, Options{}, []string{"chunk_len", "training split", "gap 256"}},
		{"participant", `{"name": "x", ` + split + `, ` + rec("ok.npy") + `}`, Options{Participant: 2}, []string{"participant 2"}},
		{"subject-unknown", `{"name": "x", "split": {"train": ["a"], "val": ["z"], "test": ["a"]}, "subjects": [{"id": "a", "data": "ok.npy"}]}`, Options{}, []string{`split.val: subject "z"`}},
		{"subject-twice", `{"name": "x", "split": {"train": ["a"], "val": ["b"], "test": ["a"]}, "subjects": [{"id": "a", "data": "ok.npy"}, {"id": "b", "data": "ok.npy"}]}`, Options{}, []string{`subject "a" is already in split.train`}},
		{"subject-no-id", `{"name": "x", "subjects": [{"data": "ok.npy"}]}`, Options{}, []string{"subjects[0].id is empty"}},
		{"subject-movie-split", `{"name": "x", "split": {"val_start": 5}, "subjects": [{"id": "a", "data": "ok.npy"}]}`, Options{}, []string{"field split"}},
	} {
		path := filepath.Join(dir, tc.name+".json")
		writeFile(t, path, tc.body)
		_, err := Load(ManifestPrefix+path, tc.opt)
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		for _, w := range append(tc.want, tc.name+".json") {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, w)
			}
		}
	}
}
