package calib

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// jsonVersion is bumped when the serialised layout changes.
const jsonVersion = 1

// controllerJSON is the checkpoint layout. encoding/json writes float64 in
// its shortest round-tripping form, so every value is restored bit-exactly.
type controllerJSON struct {
	Version        int            `json:"version"`
	Config         Config         `json:"config"`
	Minibatch      int            `json:"minibatch"`
	Committed      momentsJSON    `json:"committed"`
	Staged         *momentsJSON   `json:"staged,omitempty"`
	History        []HistoryEntry `json:"history"`
	HistoryDropped int            `json:"history_dropped"`
	Sampler        *samplerJSON   `json:"sampler,omitempty"`
}

// momentsJSON mirrors moments; per-(k,l) arrays are [K][L] flattened.
type momentsJSON struct {
	Calibrations int           `json:"calibrations"`
	Gains        []float64     `json:"gains"`
	T            []wiener.Sym2 `json:"T"`
	R            []wiener.Sym2 `json:"R"`
	P            []wiener.Sym2 `json:"P"`
	Candidate    []string      `json:"candidate"`
	Fallback     []string      `json:"fallback"`
	TotProbes    []int         `json:"tot_probes"`
	NoiseProbes  []int         `json:"noise_probes"`
}

// samplerJSON stores an owned sampler by registry name and its own JSON.
type samplerJSON struct {
	Name  string          `json:"name"`
	State json.RawMessage `json:"state"`
}

func toJSON(m *moments) momentsJSON {
	return momentsJSON{
		Calibrations: m.calibrations, Gains: m.gains, T: m.T, R: m.R, P: m.P,
		Candidate: m.candidate, Fallback: m.fallback, TotProbes: m.totProbes, NoiseProbes: m.noiseProbes,
	}
}

func fromJSON(j *momentsJSON) moments {
	return moments{
		calibrations: j.Calibrations, gains: j.Gains, T: j.T, R: j.R, P: j.P,
		candidate: j.Candidate, fallback: j.Fallback, totProbes: j.TotProbes, noiseProbes: j.NoiseProbes,
	}
}

// MarshalJSON implements [json.Marshaler]: the whole controller state,
// including a pending Stage and the owned sampler.
func (c *Controller) MarshalJSON() ([]byte, error) {
	j := controllerJSON{
		Version:        jsonVersion,
		Config:         c.cfg,
		Minibatch:      c.b,
		Committed:      toJSON(&c.cur),
		History:        c.history,
		HistoryDropped: c.dropped,
	}
	if j.History == nil {
		j.History = []HistoryEntry{}
	}
	if c.staged != nil {
		s := toJSON(c.staged)
		j.Staged = &s
	}
	if c.sampler != nil {
		state, err := c.sampler.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("calib: marshalling sampler %q: %w", c.sampler.Name(), err)
		}
		j.Sampler = &samplerJSON{Name: c.sampler.Name(), State: state}
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements [json.Unmarshaler]. The input is validated fully
// (see validate.go) and refused with an error naming the offending field;
// on error the receiver, including its sampler, is unchanged.
//
// A zero Controller accepts any valid state. An initialised one (from New or
// an earlier Unmarshal) also requires the same K and L, and the same sampler
// name if it owns a sampler; the owned sampler is then restored in place, so
// references the caller holds stay valid. Warmup, Period, RouteEMA and
// HistoryCap are taken from the JSON, since the counts and history were
// produced under that schedule.
func (c *Controller) UnmarshalJSON(data []byte) error {
	var j controllerJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("calib: decoding JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("calib: trailing data after JSON object")
	}
	if c.cfg.K != 0 && (j.Config.K != c.cfg.K || j.Config.L != c.cfg.L) {
		return fmt.Errorf("calib: invalid JSON state: field \"config\" has K=%d, L=%d; controller has K=%d, L=%d",
			j.Config.K, j.Config.L, c.cfg.K, c.cfg.L)
	}
	if err := j.validate(); err != nil {
		return fmt.Errorf("calib: invalid JSON state: %w", err)
	}

	sampler := c.sampler
	switch {
	case j.Sampler == nil && sampler != nil:
		return fmt.Errorf("calib: invalid JSON state: field \"sampler\" missing, controller owns sampler %q", sampler.Name())
	case j.Sampler != nil && sampler != nil && j.Sampler.Name != sampler.Name():
		return fmt.Errorf("calib: invalid JSON state: field \"sampler.name\" = %q, controller owns sampler %q",
			j.Sampler.Name, sampler.Name())
	case j.Sampler != nil && sampler == nil:
		s, err := noise.New(j.Sampler.Name)
		if err != nil {
			return fmt.Errorf("calib: invalid JSON state: field \"sampler.name\": %w", err)
		}
		sampler = s
	}
	if j.Sampler != nil {
		// Last fallible step; a sampler leaves itself unchanged on error.
		if err := sampler.UnmarshalJSON(j.Sampler.State); err != nil {
			return fmt.Errorf("calib: invalid JSON state: field \"sampler.state\": %w", err)
		}
	}

	nc := Controller{
		cfg: j.Config, b: j.Minibatch, cur: fromJSON(&j.Committed),
		history: j.History, dropped: j.HistoryDropped, sampler: sampler,
	}
	if len(nc.history) == 0 {
		nc.history = nil
	}
	if j.Staged != nil {
		s := fromJSON(j.Staged)
		nc.staged = &s
	}
	*c = nc
	return nil
}
