package noise

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// diagonalJSONVersion is bumped when the serialised layout changes.
const diagonalJSONVersion = 1

// diagonalJSON is the serialised form of [Diagonal] (float64s round-trip bit-exactly).
type diagonalJSON struct {
	Sampler string               `json:"sampler"`
	Version int                  `json:"version"`
	Beta    float64              `json:"beta"`
	Floor   float64              `json:"floor"`
	Moments diagonalMomentsJSON  `json:"moments"`
	Staged  *diagonalMomentsJSON `json:"staged,omitempty"`
}

type diagonalMomentsJSON struct {
	Dim    int         `json:"dim"`
	Mean   [][]float64 `json:"mean"`
	Second [][]float64 `json:"second"`
	Count  []int       `json:"count"`
}

func (m *diagonalMoments) toJSON() diagonalMomentsJSON {
	return diagonalMomentsJSON{Dim: m.dim, Mean: nonNil(m.mean), Second: nonNil(m.second), Count: nonNil(m.count)}
}

// MarshalJSON implements [json.Marshaler].
func (g *Diagonal) MarshalJSON() ([]byte, error) {
	j := diagonalJSON{Sampler: DiagonalName, Version: diagonalJSONVersion, Beta: g.beta, Floor: g.floor, Moments: g.cur.toJSON()}
	if g.staged != nil {
		s := g.staged.toJSON()
		j.Staged = &s
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements [json.Unmarshaler]. Unknown fields, trailing data, inconsistent
// shapes, non-finite values and bad counts are refused with an error naming the field; on
// error the receiver is unchanged.
func (g *Diagonal) UnmarshalJSON(data []byte) error {
	var j diagonalJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("noise: diagonal-gaussian: decoding JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("noise: diagonal-gaussian: trailing data after JSON object")
	}
	if err := j.validate(); err != nil {
		return fmt.Errorf("noise: diagonal-gaussian: invalid JSON state: %w", err)
	}
	ng := Diagonal{beta: j.Beta, floor: j.Floor, cur: diagonalMoments{dim: j.Moments.Dim, mean: j.Moments.Mean, second: j.Moments.Second, count: j.Moments.Count}}
	if s := j.Staged; s != nil {
		ng.staged = &diagonalMoments{dim: s.Dim, mean: s.Mean, second: s.Second, count: s.Count}
	}
	*g = ng
	return nil
}

func (j *diagonalJSON) validate() error {
	if j.Sampler != DiagonalName {
		return fmt.Errorf("field \"sampler\" = %q, want %q", j.Sampler, DiagonalName)
	}
	if j.Version != diagonalJSONVersion {
		return fmt.Errorf("field \"version\" = %d, want %d", j.Version, diagonalJSONVersion)
	}
	if !(j.Beta > 0 && j.Beta < 1) {
		return fmt.Errorf("field \"beta\" = %v, must be in (0, 1)", j.Beta)
	}
	if !(j.Floor >= 0) || math.IsInf(j.Floor, 0) {
		return fmt.Errorf("field \"floor\" = %v, must be finite and ≥ 0", j.Floor)
	}
	if err := j.Moments.validate("moments", false); err != nil {
		return err
	}
	if s := j.Staged; s != nil {
		if j.Moments.Dim != 0 && s.Dim != j.Moments.Dim {
			return fmt.Errorf("field \"staged.dim\" = %d, want \"moments.dim\" = %d", s.Dim, j.Moments.Dim)
		}
		return s.validate("staged", true)
	}
	return nil
}

func (m *diagonalMomentsJSON) validate(field string, staged bool) error {
	H := len(m.Count)
	if m.Dim < 0 || (m.Dim == 0) != (H == 0) || (staged && H == 0) {
		return fmt.Errorf("field %q = %d inconsistent with %d horizons", field+".dim", m.Dim, H)
	}
	if len(m.Mean) != H || len(m.Second) != H {
		return fmt.Errorf("fields %q, %q, %q have lengths %d, %d, %d; want equal", field+".mean", field+".second", field+".count", len(m.Mean), len(m.Second), H)
	}
	if err := checkRows(field+".mean", m.Mean, m.Dim); err != nil {
		return err
	}
	if err := checkRows(field+".second", m.Second, m.Dim); err != nil {
		return err
	}
	for k, c := range m.Count {
		if c < 1 {
			return fmt.Errorf("field %q[%d] = %d, must be >= 1", field+".count", k, c)
		}
	}
	return nil
}
