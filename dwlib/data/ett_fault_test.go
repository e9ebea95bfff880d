package data

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ettText is a well-formed ETT CSV of n rows.
func ettText(n int) string {
	var b strings.Builder
	b.WriteString(strings.Join(ETTColumns, ",") + "\n")
	t0 := time.Date(2016, 7, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		fmt.Fprintf(&b, "%s,%d.5,2.0,1.6,0.46,4.2,1.34,30.5\n", t0.Add(time.Duration(i)*ettStep).Format(ettTimeLayout), i%7)
	}
	return b.String()
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadETTTruncatedGzip: a gzip file cut short (an interrupted download) or with a damaged
// body is reported as such, not as the short row the cut produced.
func TestReadETTTruncatedGzip(t *testing.T) {
	gz := gzipped(t, ettText(3000))
	damaged := bytes.Clone(gz)
	damaged[len(damaged)-6] ^= 0xff // the stored CRC-32
	for _, tc := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"cut in the data", gz[:len(gz)/2], "truncated gzip file"},
		{"cut in the header", gz[:5], "truncated gzip file"},
		{"cut before the trailer", gz[:len(gz)-4], "truncated gzip file"},
		{"bad checksum", damaged, "corrupt gzip file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ETTm1.csv.gz")
			if err := os.WriteFile(path, tc.raw, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadETT(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("ReadETT: %v, want an error naming %s and containing %q", err, path, tc.want)
			}
			if strings.Contains(err.Error(), "fields") {
				t.Errorf("a truncated file reported as a short row: %v", err)
			}
		})
	}
}

// TestETTFileDigest: the table records the SHA-256 of the file as stored (what sha256sum prints),
// and SourceFiles gives the same digest without parsing.
func TestETTFileDigest(t *testing.T) {
	dir := t.TempDir()
	raw := gzipped(t, ettText(10))
	if err := os.WriteFile(filepath.Join(dir, "ETTm2.csv.gz"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	want := FileDigest{Name: "ETTm2.csv.gz", SHA256: hex.EncodeToString(sum[:])}
	tab, err := ReadETT(filepath.Join(dir, "ETTm2.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if tab.File != want {
		t.Errorf("ReadETT digest %v, want %v", tab.File, want)
	}
	got, err := SourceFiles("ettm2", Options{ETTDir: dir})
	if err != nil || len(got) != 1 || got[0] != want {
		t.Errorf("SourceFiles: %v, %v; want [%v]", got, err, want)
	}
	if got, err := SourceFiles("mackey-glass", Options{}); err != nil || got != nil {
		t.Errorf("SourceFiles of a generated testbed: %v, %v", got, err)
	}
}
