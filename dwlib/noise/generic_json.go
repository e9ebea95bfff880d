package noise

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// genericJSONVersion is bumped when the serialised layout changes.
const genericJSONVersion = 1

// genericJSON is the serialised form of [Generic]. encoding/json writes each
// float64 in its shortest round-tripping form, so values (including -0) are
// restored bit-exactly; NaN/Inf never occur because Stage refuses them.
type genericJSON struct {
	Sampler  string             `json:"sampler"`
	Version  int                `json:"version"`
	Beta     float64            `json:"beta"`
	Dim      int                `json:"dim"`
	Template [][]float64        `json:"template"`
	Mean     [][]float64        `json:"mean"`
	Count    []int              `json:"count"`
	Staged   *genericStagedJSON `json:"staged,omitempty"`
}

type genericStagedJSON struct {
	Dim      int         `json:"dim"`
	Template [][]float64 `json:"template"`
	Sum      [][]float64 `json:"sum"`
	N        []int       `json:"n"`
}

// MarshalJSON implements [json.Marshaler].
func (g *Generic) MarshalJSON() ([]byte, error) {
	j := genericJSON{
		Sampler:  GenericName,
		Version:  genericJSONVersion,
		Beta:     g.beta,
		Dim:      g.cur.dim,
		Template: nonNil(g.cur.template),
		Mean:     nonNil(g.cur.mean),
		Count:    nonNil(g.cur.count),
	}
	if s := g.staged; s != nil {
		j.Staged = &genericStagedJSON{Dim: s.dim, Template: nonNil(s.template), Sum: nonNil(s.sum), N: nonNil(s.n)}
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements [json.Unmarshaler]. Unknown fields, trailing data,
// inconsistent shapes, non-finite values, bad counts or beta are refused with an
// error naming the field; on error the receiver is unchanged.
func (g *Generic) UnmarshalJSON(data []byte) error {
	var j genericJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("noise: generic: decoding JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("noise: generic: trailing data after JSON object")
	}
	if err := j.validate(); err != nil {
		return fmt.Errorf("noise: generic: invalid JSON state: %w", err)
	}
	ng := Generic{beta: j.Beta, cur: genericCommitted{dim: j.Dim, template: j.Template, mean: j.Mean, count: j.Count}}
	if s := j.Staged; s != nil {
		ng.staged = &genericStaged{dim: s.Dim, template: s.Template, sum: s.Sum, n: s.N}
	}
	*g = ng
	return nil
}

func (j *genericJSON) validate() error {
	if j.Sampler != GenericName {
		return fmt.Errorf("field \"sampler\" = %q, want %q", j.Sampler, GenericName)
	}
	if j.Version != genericJSONVersion {
		return fmt.Errorf("field \"version\" = %d, want %d", j.Version, genericJSONVersion)
	}
	if !(j.Beta > 0 && j.Beta < 1) {
		return fmt.Errorf("field \"beta\" = %v, must be in (0, 1)", j.Beta)
	}
	H := len(j.Template)
	if j.Dim < 0 || (j.Dim == 0) != (H == 0) {
		return fmt.Errorf("field \"dim\" = %d inconsistent with %d committed horizons", j.Dim, H)
	}
	if len(j.Mean) != H || len(j.Count) != H {
		return fmt.Errorf("fields \"template\", \"mean\", \"count\" have lengths %d, %d, %d; want equal", H, len(j.Mean), len(j.Count))
	}
	if err := checkRows("template", j.Template, j.Dim); err != nil {
		return err
	}
	if err := checkRows("mean", j.Mean, j.Dim); err != nil {
		return err
	}
	for k, c := range j.Count {
		if c < 1 {
			return fmt.Errorf("field \"count\"[%d] = %d, must be >= 1", k, c)
		}
	}
	s := j.Staged
	if s == nil {
		return nil
	}
	Hs := len(s.N)
	if s.Dim <= 0 || (j.Dim != 0 && s.Dim != j.Dim) {
		return fmt.Errorf("field \"staged.dim\" = %d, must be positive and equal \"dim\" = %d", s.Dim, j.Dim)
	}
	if Hs == 0 || len(s.Template) != Hs || len(s.Sum) != Hs {
		return fmt.Errorf("fields \"staged.template\", \"staged.sum\", \"staged.n\" have lengths %d, %d, %d; want equal and > 0",
			len(s.Template), len(s.Sum), Hs)
	}
	if err := checkRows("staged.template", s.Template, s.Dim); err != nil {
		return err
	}
	if err := checkRows("staged.sum", s.Sum, s.Dim); err != nil {
		return err
	}
	for k, n := range s.N {
		if n < 1 {
			return fmt.Errorf("field \"staged.n\"[%d] = %d, must be >= 1", k, n)
		}
	}
	return nil
}

// checkRows checks that rows is [H][D] with finite entries.
func checkRows(field string, rows [][]float64, D int) error {
	for k, r := range rows {
		if len(r) != D {
			return fmt.Errorf("field %q[%d] has length %d, want dim %d", field, k, len(r), D)
		}
		for d, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("field %q[%d][%d] = %v, must be finite", field, k, d, v)
			}
		}
	}
	return nil
}

// nonNil makes empty slices serialise as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
