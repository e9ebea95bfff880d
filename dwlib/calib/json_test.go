package calib

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/noise"
)

const jK, jL, jD = 3, 2, 2

// richController runs a short schedule with an owned DW-Generic sampler,
// partial noise readiness, history, and leaves a calibration and sampler
// residuals staged, so every part of the state is populated. Probe moments
// include -0 and values without short decimal forms.
func richController(t *testing.T) *Controller {
	t.Helper()
	s, err := noise.New("generic")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{K: jK, L: jL, Warmup: 2, Period: 3, RouteEMA: 1 - 1.0/30, HistoryCap: 2}
	c, err := New(cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	for b := range 12 { // calibrations at 2, 5, 8, 11 (11 left staged)
		if c.IsCalibration() {
			tot, nz := probe(b, jK, jL)
			tot[0].IJ = math.Copysign(0, -1)
			tot[1].II = 1.0 / 3
			if err := c.Stage(tot, nz, nil); err != nil {
				t.Fatal(err)
			}
		}
		res := make([]float64, 2*jK*jD)
		for i := range res {
			res[i] = math.Sin(float64(b*len(res)+i)) / 7
		}
		if err := s.Stage(res[:(b%jK+1)*jD*2], 2, b%jK+1, jD); err != nil { // horizons grow over time
			t.Fatal(err)
		}
		if b < 11 {
			c.Commit()
		}
	}
	if !c.Staged() || len(c.History()) != 2 || c.HistoryDropped() == 0 {
		t.Fatalf("fixture not rich enough: staged %v history %d dropped %d", c.Staged(), len(c.History()), c.HistoryDropped())
	}
	return c
}

// sameState compares everything but the sampler with reflect.DeepEqual and
// every float bit-wise (DeepEqual treats -0 and +0 as equal).
func sameState(t *testing.T, a, b *Controller) {
	t.Helper()
	strip := func(c *Controller) Controller { x := *c; x.sampler = nil; return x }
	if sa, sb := strip(a), strip(b); !reflect.DeepEqual(sa, sb) {
		t.Fatalf("restored state differs:\n%+v\n%+v", sa, sb)
	}
	ms := []*moments{&a.cur, &b.cur}
	if a.staged != nil {
		ms = append(ms, a.staged, b.staged)
	}
	for i := 0; i < len(ms); i += 2 {
		x, y := ms[i], ms[i+1]
		if !sameBits(x.gains, y.gains) {
			t.Fatal("gains differ bit-wise")
		}
		for j := range x.T {
			if !symBits(x.T[j], y.T[j]) || !symBits(x.R[j], y.R[j]) || !symBits(x.P[j], y.P[j]) {
				t.Fatalf("moments differ bit-wise at %d", j)
			}
		}
	}
	for h := range a.history {
		if !sameBits(a.history[h].Gains, b.history[h].Gains) {
			t.Fatal("history differs bit-wise")
		}
	}
}

func TestJSONRoundTripExact(t *testing.T) {
	tests := []struct {
		name     string
		make     func(t *testing.T) *Controller
		receiver func(t *testing.T) *Controller
	}{
		{"fresh controller into zero value", func(t *testing.T) *Controller { return mustNew(t, DefaultConfig(2, 2)) },
			func(t *testing.T) *Controller { return &Controller{} }},
		{"rich state into zero value", richController, func(t *testing.T) *Controller { return &Controller{} }},
		{"rich state into New with its own sampler", richController, func(t *testing.T) *Controller {
			s, _ := noise.New("generic")
			c, err := New(DefaultConfig(jK, jL), s)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.make(t)
			b1 := mustMarshal(t, c)
			r := tc.receiver(t)
			ownSampler := r.Sampler()
			if err := json.Unmarshal([]byte(b1), r); err != nil {
				t.Fatal(err)
			}
			if b2 := mustMarshal(t, r); b1 != b2 {
				t.Fatalf("Marshal->Unmarshal->Marshal differs:\n%s\n%s", b1, b2)
			}
			sameState(t, c, r)
			if ownSampler != nil && r.Sampler() != ownSampler {
				t.Error("the receiver's sampler was replaced instead of restored in place")
			}
			// Both continue identically.
			for range 5 {
				for _, x := range []*Controller{c, r} {
					x.Commit()
					if x.IsCalibration() {
						tot, nz := probe(x.Minibatch(), x.Config().K, x.Config().L)
						if err := x.Stage(tot, nz, allReady(x.Config().K)); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			if mustMarshal(t, c) != mustMarshal(t, r) {
				t.Error("restored controller diverged")
			}
		})
	}
}

func TestJSONRefusesCorruptState(t *testing.T) {
	valid := mustMarshal(t, richController(t))
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal([]byte(valid), &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	obj := func(m map[string]any, key string) map[string]any { return m[key].(map[string]any) }
	arr := func(m map[string]any, key string) []any { return m[key].([]any) }
	tests := []struct {
		name, data, want string
	}{
		{"not JSON", `{"version":`, "decoding JSON"},
		{"trailing data", valid + "[]", "trailing data"},
		{"unknown field", edit(func(m map[string]any) { m["extra"] = true }), `unknown field "extra"`},
		{"wrong version", edit(func(m map[string]any) { m["version"] = 2 }), `"version" = 2`},
		{"wrong K", edit(func(m map[string]any) { obj(m, "config")["K"] = 4.0 }), "K=4, L=2; controller has K=3, L=2"},
		{"wrong L", edit(func(m map[string]any) { obj(m, "config")["L"] = 1.0 }), "K=3, L=1"},
		{"invalid period", edit(func(m map[string]any) { obj(m, "config")["period"] = 0.0 }), "Config.Period = 0"},
		{"negative minibatch", edit(func(m map[string]any) { m["minibatch"] = -1.0 }), `"minibatch" = -1`},
		{"too many calibrations", edit(func(m map[string]any) { obj(m, "committed")["calibrations"] = 9.0 }),
			`"committed.calibrations" = 9`},
		{"negative tot count", edit(func(m map[string]any) { arr(obj(m, "committed"), "tot_probes")[4] = -1.0 }),
			`committed.tot_probes[4] (k=2, l=0)" = -1`},
		{"noise count above tot", edit(func(m map[string]any) { arr(obj(m, "committed"), "noise_probes")[0] = 4.0 }),
			`committed.noise_probes[0] (k=0, l=0)" = 4, must be in [0, tot_probes=3]`},
		{"NaN as string", edit(func(m map[string]any) { arr(obj(m, "committed"), "gains")[0] = "NaN" }), "decoding JSON"},
		{"overflowing number", strings.Replace(valid, `"minibatch":`, `"minibatch":1e999,"x":`, 1), "decoding JSON"},
		{"gain above one", edit(func(m map[string]any) { arr(obj(m, "committed"), "gains")[1] = 1.5 }),
			`"committed.gains[1]" = 1.5`},
		{"T too short", edit(func(m map[string]any) { c := obj(m, "committed"); c["T"] = arr(c, "T")[:2] }),
			`"committed.T" has length 2, want K*L = 6`},
		{"negative R diagonal", edit(func(m map[string]any) { arr(obj(m, "committed"), "R")[0].(map[string]any)["JJ"] = -1.0 }),
			`committed.R[0] (k=0, l=0)`},
		{"staged at a non-calibration minibatch", edit(func(m map[string]any) { m["minibatch"] = 10.0 }),
			"minibatch 10 is not a calibration minibatch"},
		{"staged skips a count", edit(func(m map[string]any) { obj(m, "staged")["calibrations"] = 7.0 }),
			`"staged.calibrations"`},
		{"history not increasing", edit(func(m map[string]any) {
			h := arr(m, "history")
			h[0], h[1] = h[1], h[0]
		}), `"history[1]".minibatch`},
		{"history over cap", edit(func(m map[string]any) { obj(m, "config")["history_cap"] = 1.0 }), "more than history_cap 1"},
		{"negative dropped", edit(func(m map[string]any) { m["history_dropped"] = -3.0 }), `"history_dropped" = -3`},
		{"missing sampler", edit(func(m map[string]any) { delete(m, "sampler") }), `"sampler" missing`},
		{"other sampler name", edit(func(m map[string]any) { obj(m, "sampler")["name"] = "spectral" }),
			`"sampler.name" = "spectral"`},
		{"corrupt sampler state", edit(func(m map[string]any) { obj(obj(m, "sampler"), "state")["beta"] = 2.0 }),
			`"sampler.state"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := richController(t)
			c.Commit() // receiver differs from the JSON
			before := mustMarshal(t, c)
			err := c.UnmarshalJSON([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want containing %q", err, tc.want)
			}
			if after := mustMarshal(t, c); after != before {
				t.Error("receiver (or its sampler) changed on error")
			}
		})
	}
}

func TestJSONSamplerRestoredByName(t *testing.T) {
	valid := mustMarshal(t, richController(t))
	var c Controller
	if err := json.Unmarshal([]byte(valid), &c); err != nil {
		t.Fatal(err)
	}
	if c.Sampler() == nil || c.Sampler().Name() != "generic" {
		t.Fatalf("sampler not restored from its name: %v", c.Sampler())
	}
	var m map[string]any
	_ = json.Unmarshal([]byte(valid), &m)
	m["sampler"].(map[string]any)["name"] = "nope"
	bad, _ := json.Marshal(m)
	var d Controller
	if err := json.Unmarshal(bad, &d); err == nil || !strings.Contains(err.Error(), `unknown sampler "nope" (valid: diagonal-gaussian, generic, spectral)`) {
		t.Errorf("unknown sampler name: err = %v", err)
	}
	if d.Config().K != 0 {
		t.Error("zero receiver changed on error")
	}
}
