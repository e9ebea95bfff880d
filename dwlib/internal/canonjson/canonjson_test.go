package canonjson

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestIntegersStayExact: seeds beyond 2^53 keep their identity.
func TestIntegersStayExact(t *testing.T) {
	type ident struct {
		Seed uint64  `json:"seed"`
		LR   float64 `json:"lr"`
	}
	a, err := Marshal(ident{Seed: math.MaxUint64, LR: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Marshal(ident{Seed: math.MaxUint64 - 1, LR: 1e-4})
	if bytes.Equal(a, b) {
		t.Fatalf("seeds 2^64-1 and 2^64-2 have one canonical form %s", a)
	}
	if want := `{"lr":0.0001,"seed":18446744073709551615}`; string(a) != want {
		t.Errorf("canonical %s, want %s", a, want)
	}
	d := Diff(a, b, "checkpoint", "this run")
	if len(d) != 1 || d[0] != "seed: checkpoint 18446744073709551615, this run 18446744073709551614" {
		t.Errorf("diff %q", d)
	}
}

// TestSameAsFloatRoundTrip: for numbers float64 holds exactly, the canonical form is the one a
// float64 round trip gives (what identities written before this package hold).
func TestSameAsFloatRoundTrip(t *testing.T) {
	v := map[string]any{"b": []any{1, 2.5, 1e-4, 20260101, 3e21, -0.125}, "a": map[string]any{"z": true, "y": "s", "x": nil}, "seed": uint64(1) << 52}
	raw, _ := json.Marshal(v)
	var g any
	_ = json.Unmarshal(raw, &g)
	old, _ := json.Marshal(g)
	got, err := Marshal(v)
	if err != nil || !bytes.Equal(got, old) {
		t.Errorf("canonical %s (%v), float64 round trip %s", got, err, old)
	}
	if _, err := Canonical([]byte("{")); err == nil || !strings.Contains(err.Error(), "EOF") {
		t.Errorf("a broken document: %v", err)
	}
}
