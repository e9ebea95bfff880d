package noise

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

const spectralJSONVersion = 1

// spectralJSON is the serialised form of [Spectral]; float64 values round-trip bit-exactly.
type spectralJSON struct {
	Sampler  string              `json:"sampler"`
	Version  int                 `json:"version"`
	Channels int                 `json:"channels"`
	Height   int                 `json:"height"`
	Width    int                 `json:"width"`
	Beta     float64             `json:"beta"`
	Mean     [][]float64         `json:"mean"`
	Second   [][]float64         `json:"second"`
	Spectrum [][]float64         `json:"spectrum"`
	MomN     []int               `json:"moment_updates"`
	SpecN    []int               `json:"spectrum_updates"`
	Staged   *spectralStagedJSON `json:"staged,omitempty"`
}

type spectralStagedJSON struct {
	SumE   [][]float64 `json:"sum"`
	SumE2  [][]float64 `json:"sum_sq"`
	SumPow [][]float64 `json:"sum_power"`
	NE     []int       `json:"n"`
	NPow   []int       `json:"n_power"`
}

// MarshalJSON implements [json.Marshaler].
func (s *Spectral) MarshalJSON() ([]byte, error) {
	j := spectralJSON{Sampler: SpectralName, Version: spectralJSONVersion, Channels: s.cfg.Channels, Height: s.cfg.Height,
		Width: s.cfg.Width, Beta: s.cfg.Beta, Mean: nonNil(s.cur.mean), Second: nonNil(s.cur.second), Spectrum: nonNil(s.cur.spec),
		MomN: nonNil(s.cur.momN), SpecN: nonNil(s.cur.specN)}
	if st := s.staged; st != nil {
		j.Staged = &spectralStagedJSON{SumE: nonNil(st.sumE), SumE2: nonNil(st.sumE2), SumPow: nonNil(st.sumPow), NE: nonNil(st.nE), NPow: nonNil(st.nPow)}
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements [json.Unmarshaler]: unknown fields, a different shape or version,
// inconsistent lengths and non-finite values are refused by name; on error s is unchanged.
func (s *Spectral) UnmarshalJSON(data []byte) error {
	var j spectralJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("noise: spectral: decoding JSON: %w", err)
	}
	if j.Sampler != SpectralName || j.Version != spectralJSONVersion {
		return fmt.Errorf("noise: spectral: JSON of sampler %q version %d, want %q version %d", j.Sampler, j.Version, SpectralName, spectralJSONVersion)
	}
	fresh, err := NewSpectral(SpectralConfig{Channels: j.Channels, Height: j.Height, Width: j.Width, Beta: j.Beta})
	if err != nil {
		return fmt.Errorf("noise: spectral: JSON: %w", err)
	}
	D, P := fresh.dim(), fresh.cfg.Channels*fresh.half()
	H := len(j.MomN)
	check := func(name string, rows [][]float64, want int, optional bool) error {
		if len(rows) != H {
			return fmt.Errorf("noise: spectral: JSON field %q has %d horizons, moment_updates %d", name, len(rows), H)
		}
		for k, r := range rows {
			if optional && r == nil {
				continue
			}
			if len(r) != want {
				return fmt.Errorf("noise: spectral: JSON field %q, horizon %d: %d values, want %d", name, k, len(r), want)
			}
			for d, v := range r {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("noise: spectral: JSON field %q, horizon %d, value %d is %v", name, k, d, v)
				}
			}
		}
		return nil
	}
	if len(j.SpecN) != H {
		return fmt.Errorf("noise: spectral: JSON field \"spectrum_updates\" has %d horizons, moment_updates %d", len(j.SpecN), H)
	}
	for _, c := range []struct {
		name     string
		rows     [][]float64
		want     int
		optional bool
	}{{"mean", j.Mean, D, false}, {"second", j.Second, D, false}, {"spectrum", j.Spectrum, P, true}} {
		if err := check(c.name, c.rows, c.want, c.optional); err != nil {
			return err
		}
	}
	for k := range H {
		if j.MomN[k] < 1 || j.SpecN[k] < 0 || (j.SpecN[k] > 0) != (j.Spectrum[k] != nil) {
			return fmt.Errorf("noise: spectral: JSON horizon %d: moment_updates %d, spectrum_updates %d inconsistent with its spectrum", k, j.MomN[k], j.SpecN[k])
		}
	}
	fresh.cur = spectralState{mean: j.Mean, second: j.Second, spec: j.Spectrum, momN: j.MomN, specN: j.SpecN}
	if st := j.Staged; st != nil {
		Hs := len(st.NE)
		if len(st.SumE) != Hs || len(st.SumE2) != Hs || len(st.SumPow) != Hs || len(st.NPow) != Hs {
			return fmt.Errorf("noise: spectral: JSON field \"staged\": inconsistent horizon counts")
		}
		for k := range Hs {
			if len(st.SumE[k]) != D || len(st.SumE2[k]) != D || len(st.SumPow[k]) != P || st.NE[k] < 0 || st.NPow[k] < 0 {
				return fmt.Errorf("noise: spectral: JSON field \"staged\", horizon %d: inconsistent lengths or counts", k)
			}
		}
		fresh.staged = &spectralStaged{sumE: st.SumE, sumE2: st.SumE2, sumPow: st.SumPow, nE: st.NE, nPow: st.NPow}
	}
	*s = *fresh
	return nil
}
