package noise

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// trickyGeneric builds a sampler whose committed and staged state contain
// values that a lossy encoding would change: -0, 1/3, 0.1+0.2, a subnormal, a
// huge value and a beta that is not a short decimal.
func trickyGeneric(t *testing.T) *Generic {
	t.Helper()
	g, err := NewGeneric(GenericConfig{Beta: 1 - 1.0/3e3})
	if err != nil {
		t.Fatal(err)
	}
	negZero := math.Copysign(0, -1)
	stageCommit(t, g, []float64{negZero, 1.0 / 3, 0.1 + 0.2, 5e-324, 1e300, -7}, 2, 1, 3)
	stageCommit(t, g, []float64{math.Pi, negZero, 2.0 / 3, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 2, 2, 3)
	if err := g.Stage([]float64{1.0 / 7, negZero, math.E, math.Sqrt2, 1e-310, -1.0 / 9}, 1, 2, 3); err != nil {
		t.Fatal(err)
	}
	return g
}

// sameGeneric compares two samplers bit-exactly (reflect.DeepEqual would
// consider -0 == +0).
func sameGeneric(a, b *Generic) bool {
	rowsEq := func(x, y [][]float64) bool {
		if len(x) != len(y) {
			return false
		}
		for k := range x {
			if !equalBits(x[k], y[k]) {
				return false
			}
		}
		return true
	}
	intsEq := func(x, y []int) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if math.Float64bits(a.beta) != math.Float64bits(b.beta) || a.cur.dim != b.cur.dim ||
		!rowsEq(a.cur.template, b.cur.template) || !rowsEq(a.cur.mean, b.cur.mean) || !intsEq(a.cur.count, b.cur.count) {
		return false
	}
	if (a.staged == nil) != (b.staged == nil) {
		return false
	}
	if a.staged == nil {
		return true
	}
	return a.staged.dim == b.staged.dim && rowsEq(a.staged.template, b.staged.template) &&
		rowsEq(a.staged.sum, b.staged.sum) && intsEq(a.staged.n, b.staged.n)
}

func TestGenericJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		make func(t *testing.T) *Generic
	}{
		{"empty", func(t *testing.T) *Generic { return mustGeneric(t) }},
		{"staged only", func(t *testing.T) *Generic {
			g := mustGeneric(t)
			if err := g.Stage([]float64{0.1, 0.2}, 1, 1, 2); err != nil {
				t.Fatal(err)
			}
			return g
		}},
		{"committed and staged, tricky floats", trickyGeneric},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.make(t)
			b1, err := json.Marshal(g)
			if err != nil {
				t.Fatal(err)
			}
			var h Generic
			if err := json.Unmarshal(b1, &h); err != nil {
				t.Fatal(err)
			}
			b2, err := json.Marshal(&h)
			if err != nil {
				t.Fatal(err)
			}
			if string(b1) != string(b2) {
				t.Errorf("Marshal->Unmarshal->Marshal differs:\n%s\n%s", b1, b2)
			}
			if !sameGeneric(g, &h) {
				t.Errorf("restored state differs bit-wise")
			}
			// The restored sampler continues identically.
			g.Commit()
			h.Commit()
			D := max(g.Dim(), 1)
			e1, err1 := g.Sample(rand.New(rand.NewPCG(1, 2)), 16, 3, D)
			e2, err2 := h.Sample(rand.New(rand.NewPCG(1, 2)), 16, 3, D)
			if err1 != nil || err2 != nil || !equalBits(e1, e2) {
				t.Errorf("restored sampler draws differ (errs %v, %v)", err1, err2)
			}
		})
	}
}

func TestGenericUnmarshalRefusesCorruptJSON(t *testing.T) {
	valid, err := json.Marshal(trickyGeneric(t))
	if err != nil {
		t.Fatal(err)
	}
	// edit decodes the valid state into a generic map, applies f, re-encodes.
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(valid, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	staged := func(m map[string]any) map[string]any { return m["staged"].(map[string]any) }
	tests := []struct {
		name, data, want string
	}{
		{"not JSON", "{", "decoding JSON"},
		{"trailing data", string(valid) + "{}", "trailing data"},
		{"unknown field", edit(func(m map[string]any) { m["bogus"] = 1 }), "unknown field \"bogus\""},
		{"wrong sampler", edit(func(m map[string]any) { m["sampler"] = "spectral" }), "\"sampler\""},
		{"wrong version", edit(func(m map[string]any) { m["version"] = 9 }), "\"version\""},
		{"beta out of range", edit(func(m map[string]any) { m["beta"] = 1 }), "\"beta\""},
		{"dim mismatch", edit(func(m map[string]any) { m["dim"] = 4 }), "want dim 4"},
		{"negative dim", edit(func(m map[string]any) { m["dim"] = -1 }), "\"dim\""},
		{"mean shorter", edit(func(m map[string]any) { m["mean"] = m["mean"].([]any)[:1] }), "\"mean\""},
		{"zero count", edit(func(m map[string]any) { m["count"].([]any)[1] = 0 }), "\"count\"[1]"},
		{"huge number", strings.Replace(string(valid), `"beta":`, `"beta":1e999,"x":`, 1), "decoding JSON"},
		{"staged n zero", edit(func(m map[string]any) { staged(m)["n"].([]any)[0] = 0 }), "\"staged.n\"[0]"},
		{"staged dim differs", edit(func(m map[string]any) { staged(m)["dim"] = 2 }), "\"staged.dim\""},
		{"staged sum row short", edit(func(m map[string]any) {
			staged(m)["sum"].([]any)[1] = []any{1.0}
		}), "\"staged.sum\"[1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := trickyGeneric(t)
			g.Commit() // receiver state differs from the JSON's
			before, _ := json.Marshal(g)
			err := g.UnmarshalJSON([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want containing %q", err, tc.want)
			}
			after, _ := json.Marshal(g)
			if string(before) != string(after) {
				t.Error("receiver changed on error")
			}
		})
	}
}
