package experiment

import (
	"compress/gzip"
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/train"
)

func TestPickControl(t *testing.T) {
	c := func(v, val float64) Candidate { return Candidate{Value: v, Run: "r" + fmtControl(v), BestVal: val} }
	for _, tc := range []struct {
		name  string
		def   float64
		cands []Candidate
		want  float64
		err   []string // substrings of the error
	}{
		{"lowest wins", 1.0, []Candidate{c(0.1, .5), c(0.3, .2), c(1.0, .4)}, 0.3, nil},
		{"lowest wins over the default", 0.3, []Candidate{c(0.1, .1), c(0.3, .2), c(1.0, .4)}, 0.1, nil},
		{"tie goes to the default", 1.0, []Candidate{c(0.1, .2), c(0.3, .2), c(1.0, .2)}, 1.0, nil},
		{"tie without the default goes to the smaller", 1.0, []Candidate{c(0.3, .2), c(0.1, .2), c(1.0, .4)}, 0.1, nil},
		{"default outside the grid", 4, []Candidate{c(16, .3), c(8, .3)}, 8, nil},
		{"missing candidates are named", 1.0, []Candidate{c(0.1, .2), {Value: 0.3, Run: "r0.3", Missing: "not run"}, {Value: 1, Run: "r1", Missing: "boom"}},
			0, []string{"2 of 3", "r0.3 (not run)", "r1 (boom)"}},
		{"NaN is missing", 1.0, []Candidate{c(0.1, math.NaN()), c(1.0, .2)}, 0, []string{"r0.1 (validation loss NaN)"}},
		{"empty", 1.0, nil, 0, []string{"no candidates"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pickControl(tc.def, tc.cands)
			if len(tc.err) > 0 {
				if err == nil {
					t.Fatalf("picked %v, want an error", got)
				}
				for _, s := range tc.err {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not contain %q", err, s)
					}
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("pickControl = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestControlGrid(t *testing.T) {
	for _, tc := range []struct {
		method string
		K      int
		want   []float64
	}{
		{"clip", 32, []float64{0.1, 0.3, 1.0}},
		{"jreg", 64, []float64{0.01, 0.1, 1.0}},
		{"static", 32, []float64{0.3, 0.6, 0.9}},
		{"tbptt", 32, []float64{8, 16}},  // the paper's Mackey–Glass grid
		{"tbptt", 64, []float64{16, 32}}, // and ETT's
		{"tbptt", 8, []float64{2, 4}},    // the quick profile
	} {
		got, err := ControlGrid(tc.method, tc.K)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ControlGrid(%s, %d) = %v, %v; want %v", tc.method, tc.K, got, err, tc.want)
		}
	}
	if _, err := ControlGrid("dw", 32); err == nil || !strings.Contains(err.Error(), `"dw"`) {
		t.Errorf("ControlGrid(dw) error = %v, want one naming dw", err)
	}
}

// The profile's own control value keeps today's name (method-K<K>-s<seed>) on every profile and
// testbed, and each grid value other than it names a run of its own.
func TestControlNames(t *testing.T) {
	for _, p := range Profiles() {
		for _, tb := range Testbeds() {
			if data.IsField(tb) != slices.Contains(FieldProfiles(), p) {
				continue // a field testbed runs only with the field profiles, and they only with it
			}
			for _, m := range ControlMethods() {
				def, err := Resolve(p, tb, m, 1, 0)
				if err != nil {
					t.Fatal(err)
				}
				want := def.Profile + "/" + tb + "/" + m + "-K" + itoa(def.Train.K) + "-s1"
				if def.Name() != want {
					t.Fatalf("%s %s %s: default run is named %s, want %s", p, tb, m, def.Name(), want)
				}
				grid, err := ControlGrid(m, def.Train.K)
				if err != nil {
					t.Fatal(err)
				}
				v0, _ := def.ControlValue()
				names := map[string]float64{}
				for _, v := range grid {
					c, err := ResolveControl(p, tb, m, 1, 0, v)
					if err != nil {
						t.Fatalf("%s %s %s %v: %v", p, tb, m, v, err)
					}
					if (c.Name() == want) != (v == v0) {
						t.Errorf("%s %s %s value %v (profile's %v): name %s", p, tb, m, v, v0, c.Name())
					}
					if prev, dup := names[c.Name()]; dup {
						t.Errorf("%s: values %v and %v share the name %s", m, prev, v, c.Name())
					}
					names[c.Name()] = v
				}
			}
		}
	}
	c, err := ResolveControl(PaperCPU, "mackey-glass", "clip", 0, 0, 0.3)
	if err != nil || c.Name() != "paper-cpu/mackey-glass/clip-c0.3-K32-s0" {
		t.Errorf("clip 0.3: %q, %v; want paper-cpu/mackey-glass/clip-c0.3-K32-s0", c.Name(), err)
	}
	for _, bad := range []struct {
		method string
		v      float64
		want   string
	}{{"clip", -1, "train.clip_norm -1"}, {"tbptt", 2.5, "train.segment 2.5"}, {"full", 1, `"full"`}, {"jreg", math.Inf(1), "train.jreg_coef +Inf"}} {
		if _, err := ResolveControl(Quick, "mackey-glass", bad.method, 0, 0, bad.v); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ResolveControl(%s, %v) error = %v, want one containing %q", bad.method, bad.v, err, bad.want)
		}
	}
}

func itoa(k int) string { return strings.TrimSpace(fmtControl(float64(k))) }

// Every archived run keeps its directory: the name its configuration gives is where it lies.
func TestArchivedRunNamesUnchanged(t *testing.T) {
	root, err := DefaultArchiveDir()
	if err != nil {
		t.Skip(err)
	}
	n := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (d.Name() != ResultFile && d.Name() != ResultFile+".gz") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		var r struct {
			Config RunConfig `json:"config"`
		}
		dec := json.NewDecoder(f)
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(f)
			if err != nil {
				return err
			}
			dec = json.NewDecoder(zr)
		}
		if err := dec.Decode(&r); err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		if got := r.Config.Name(); got != filepath.ToSlash(rel) {
			t.Errorf("%s: its configuration now names it %s", rel, got)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Skipf("no archived results under %s", root)
	}
}

func TestSelectionMarkdown(t *testing.T) {
	t4 := 1.0
	sel := &Selection{Profile: Quick, Choices: []Choice{{Testbed: "mackey-glass", Method: "clip", K: 8, ProfileValue: 1, Table4: &t4, Selected: 0.3,
		Candidates: []Candidate{{Value: 0.1, BestVal: .5}, {Value: 0.3, BestVal: .25}, {Value: 1, Missing: "not run"}}}}}
	md := sel.Markdown()
	for _, want := range []string{"| mackey-glass | clip | 8 | 0.1: 0.50000, **0.3: 0.25000**, 1: — | 0.3 | 1 | 1 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}

// writeFakeResult writes a finished result of cfg with best validation loss val, as a run would,
// so that SelectControls reads it back without training.
func writeFakeResult(t *testing.T, opt Options, cfg RunConfig, val float64) {
	t.Helper()
	dir, err := opt.Dir(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &Result{Version: resultVersion, Config: cfg, Epochs: make([]train.EpochRecord, 1), BestVal: val, StopReason: "epochs",
		Test: TestScore{RelL2: 1, PerHorizon: make([]float64, cfg.HEval)}}
	if err := WriteResult(filepath.Join(dir, ResultFile), r); err != nil {
		t.Fatal(err)
	}
}

// SelectControls on finished (fake) runs: the lowest validation loss wins, the choice is written
// beside the runs, and a candidate whose result cannot be read is an error naming it.
func TestSelectControlsReadsBack(t *testing.T) {
	opt := Options{RunsDir: t.TempDir(), NoArchive: true}
	vals := map[float64]float64{0.1: .30, 0.3: .20, 1.0: .40}
	for v, val := range vals {
		c, err := ResolveControl(Quick, "mackey-glass", "clip", 0, 0, v)
		if err != nil {
			t.Fatal(err)
		}
		writeFakeResult(t, opt, c, val)
	}
	sel, err := SelectControls(opt, Quick, []string{"mackey-glass"}, []string{"clip"})
	if err != nil {
		t.Fatal(err)
	}
	ch := sel.Choices[0]
	if ch.Selected != 0.3 || ch.ProfileValue != 1 || ch.Table4 == nil || *ch.Table4 != 1 || len(ch.Candidates) != 3 || ch.Candidates[1].BestVal != .2 {
		t.Fatalf("choice %+v", ch)
	}
	path, err := ChoiceFile(opt, Quick, "mackey-glass", "clip", 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), `"selected": 0.3`) || !strings.Contains(string(b), "quick/mackey-glass/clip-c0.3-K8-s0") {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	// A damaged result: the run is refused, and the selection names it.
	bad, _ := ResolveControl(Quick, "mackey-glass", "clip", 0, 0, 0.1)
	dir, _ := opt.Dir(bad)
	if err := os.WriteFile(filepath.Join(dir, ResultFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	sel, err = SelectControls(opt, Quick, []string{"mackey-glass"}, []string{"clip"})
	if err == nil || !strings.Contains(err.Error(), "quick/mackey-glass/clip-c0.1-K8-s0 (") || sel == nil {
		t.Fatalf("damaged candidate: %v", err)
	}
}

// ReadSelection reads finished candidates back without training: a complete grid is chosen as
// SelectControls would, an incomplete one names its unfinished candidates and chooses nothing.
func TestReadSelection(t *testing.T) {
	opt := Options{RunsDir: t.TempDir(), NoArchive: true}
	for _, f := range []struct {
		method string
		value  float64
		val    float64
	}{{"clip", 0.1, .30}, {"clip", 0.3, .20}, {"clip", 1, .40}, {"tbptt", 4, .25}} {
		c, err := ResolveControl(Quick, "mackey-glass", f.method, 0, 0, f.value)
		if err != nil {
			t.Fatal(err)
		}
		writeFakeResult(t, opt, c, f.val)
	}
	sel, err := ReadSelection(opt, Quick, []string{"mackey-glass"}, []string{"clip", "tbptt"})
	if err != nil {
		t.Fatal(err)
	}
	clip, tbptt := sel.Choices[0], sel.Choices[1]
	if clip.Selected != 0.3 || clip.Candidates[0].BestVal != .30 || clip.Candidates[2].Missing != "" {
		t.Errorf("complete grid: %+v", clip)
	}
	if !math.IsNaN(tbptt.Selected) || len(tbptt.Candidates) != 2 {
		t.Fatalf("incomplete grid chose %v: %+v", tbptt.Selected, tbptt)
	}
	for _, c := range tbptt.Candidates {
		if done := c.Value == 4; done != (c.Missing == "") || (!done && c.Missing != "not finished") {
			t.Errorf("tbptt candidate %v: %+v", c.Value, c)
		}
	}
	md := sel.Markdown()
	if !strings.Contains(md, "| mackey-glass | tbptt | 8 | 2: —, 4: 0.25000 | — |") || !strings.Contains(md, "**0.3: 0.20000**") {
		t.Errorf("Markdown of a partial selection:\n%s", md)
	}
	if entries, _ := os.ReadDir(filepath.Join(opt.RunsDir, Quick, "mackey-glass")); len(entries) != 4 {
		t.Errorf("ReadSelection changed the runs directory: %d entries, want the 4 fake runs", len(entries))
	}
}
