package experiment

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// The test binary doubles as a helper process for the tests that need a second process:
// DW_TEST_HELPER=lock holds the lock of $DW_TEST_DIR until its stdin closes;
// DW_TEST_HELPER=run resumes the run of the configuration $DW_TEST_CONFIG under $DW_TEST_RUNS
// (data cache $DW_TEST_CACHE) until it ends or is killed.
func TestMain(m *testing.M) {
	switch os.Getenv("DW_TEST_HELPER") {
	case "lock":
		l, err := lockRunDir(os.Getenv("DW_TEST_DIR"))
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
		l.release()
		os.Exit(0)
	case "run":
		cfg, err := ReadConfig(os.Getenv("DW_TEST_CONFIG"))
		if err == nil {
			_, err = Run(cfg, Options{RunsDir: os.Getenv("DW_TEST_RUNS"), DataCache: os.Getenv("DW_TEST_CACHE"), Resume: true, Log: os.Stdout})
		}
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if d, ok := shearCacheMade.Load().(string); ok {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// helper starts the test binary as a helper process with the given environment; its stdout is
// returned as lines.
func helper(t *testing.T, env ...string) (*exec.Cmd, io.WriteCloser, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, stdin, lines
}

// waitLine waits for a helper's line (at most 60 s).
func waitLine(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("the helper process ended without a line")
		}
		return l
	case <-time.After(60 * time.Second):
		t.Fatal("no line from the helper process in 60 s")
	}
	return ""
}

// writeConfigFile writes cfg as a -config file.
func writeConfigFile(t *testing.T, cfg RunConfig) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(path, cfg.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeETT writes a synthetic ETTm1.csv.gz (the full 12/4/4-month split) into dir; version changes
// the values, as a different download would.
func writeETT(t *testing.T, dir string, version int) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "ETTm1.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	w := gzip.NewWriter(f)
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "date,HUFL,HULL,MUFL,MULL,LUFL,LULL,OT")
	t0 := time.Date(2016, 7, 1, 0, 0, 0, 0, time.UTC)
	for i := range data.ETTTrainRows + data.ETTValRows + data.ETTTestRows {
		fmt.Fprint(bw, t0.Add(time.Duration(i)*15*time.Minute).Format("2006-01-02 15:04:05"))
		for j := range 7 {
			fmt.Fprintf(bw, ",%.3f", math.Sin(float64(i)*0.05*float64(j+1)+float64(version))+0.1*float64(j))
		}
		fmt.Fprintln(bw)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// editJSON applies edit to the JSON object in b (numbers kept as written).
func editJSON(t *testing.T, b []byte, edit func(map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
