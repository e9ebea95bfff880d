package experiment

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/train"
)

// TestResultChecksum (issue 40, defect 9): a result carries the SHA-256 of its content, and a
// result edited after it was written (a score changed by hand, a damaged archive) is refused
// naming the file; a result written before checksums existed is still read, and says so; a result
// only reformatted (indentation) keeps its checksum.
func TestResultChecksum(t *testing.T) {
	cfg := quickCfg(t, "dw", 3)
	r := &Result{Version: resultVersion, Config: cfg, Model: "m", Backend: "go", StopReason: "epochs",
		Epochs: []train.EpochRecord{{Epoch: 1, TrainLoss: 0.75, ValLoss: 0.5}}, BestEpoch: 1, BestVal: 0.5,
		Test: TestScore{RelL2: 0.625, PerHorizon: make([]float64, cfg.HEval), Units: 2, Origins: 8}}
	for i := range r.Test.PerHorizon {
		r.Test.PerHorizon[i] = 0.5 + float64(i)/64
	}
	gunzip := func(b []byte) []byte {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	sumKey := regexp.MustCompile(`,?\s*"sha256":\s*"[0-9a-f]*"`)
	for _, tc := range []struct {
		name  string
		file  string
		edit  func(string) string // on the JSON text
		want  string              // "": read back
		check bool                // read back with a checksum
	}{
		{"as written", ResultFile, func(s string) string { return s }, "", true},
		{"archived as written", ArchivedResultFile, func(s string) string { return s }, "", true},
		{"reindented", ResultFile, func(s string) string { return strings.ReplaceAll(s, "\n  ", "\n\t") }, "", true},
		{"score edited", ResultFile, func(s string) string { return strings.Replace(s, `"rel_l2": 0.625`, `"rel_l2": 0.1`, 1) }, "checksum", false},
		{"archived score edited", ArchivedResultFile, func(s string) string { return strings.Replace(s, `"rel_l2":0.625`, `"rel_l2":0.1`, 1) }, "checksum", false},
		{"best epoch edited", ResultFile, func(s string) string { return strings.Replace(s, `"best_epoch": 1`, `"best_epoch": 2`, 1) }, "checksum", false},
		{"checksum edited", ResultFile, func(s string) string { return strings.Replace(s, `"sha256": "`, `"sha256": "00`, 1) }, "checksum", false},
		{"written before checksums", ResultFile, func(s string) string { return sumKey.ReplaceAllString(s, "") }, "", false},
		{"archived before checksums", ArchivedResultFile, func(s string) string { return sumKey.ReplaceAllString(s, "") }, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := WriteResult(path, r); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			isGz := strings.HasSuffix(path, ".gz")
			if isGz {
				b = gunzip(b)
			}
			text := tc.edit(string(b))
			if text == string(b) != (tc.name == "as written" || tc.name == "archived as written") {
				t.Fatalf("the edit changed nothing (or the identity edit something):\n%s", b)
			}
			out := []byte(text)
			if isGz {
				out = gz(out)
			}
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadResult(path)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("ReadResult: %v, want an error naming %s and the %s", err, path, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadResult: %v", err)
			}
			if got.Test.RelL2 != r.Test.RelL2 {
				t.Errorf("read back rel-L2 %v, want %v", got.Test.RelL2, r.Test.RelL2)
			}
			if (got.Checksum != "") != tc.check {
				t.Errorf("read back with checksum %q, want one: %v", got.Checksum, tc.check)
			}
		})
	}
}
