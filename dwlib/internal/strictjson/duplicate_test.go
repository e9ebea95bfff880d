package strictjson

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDuplicate(t *testing.T) {
	for _, tc := range []struct {
		name, json, want string // want "": no error
	}{
		{"none", `{"a": 1, "b": {"a": 2}, "c": [{"a": 1}, {"a": 2}]}`, ""},
		{"top level", `{"epochs": 2, "epochs": 1}`, `field "epochs" is given twice`},
		{"nested", `{"train": {"lr": 1, "epochs": 2, "epochs": 1}}`, `field "train.epochs" is given twice`},
		{"in an array", `{"runs": [{"seed": 1}, {"seed": 2, "seed": 3}]}`, `field "runs[1].seed" is given twice`},
		{"null values too", `{"a": null, "a": null}`, `field "a" is given twice`},
		{"not JSON is left to the decoder", `{"a": 1,`, ""},
		{"equal keys in sibling objects", `{"x": {"k": 1}, "y": {"k": 1}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Duplicate([]byte(tc.json))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		size int
		ok   bool
	}{{"at the limit", MaxFileBytes, true}, {"one byte over", MaxFileBytes + 1, false}} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, bytes.Repeat([]byte(" "), tc.size), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := ReadFile(path)
		if tc.ok && (err != nil || len(b) != tc.size) {
			t.Errorf("%s: %d bytes, %v", tc.name, len(b), err)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "at most")) {
			t.Errorf("%s: %v, want an error naming the file and the limit", tc.name, err)
		}
	}
}
