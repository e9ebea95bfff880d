package prior

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// samplerJSONVersion is bumped when the serialised layout changes.
const samplerJSONVersion = 1

// samplerJSON is the serialised form of [Sampler]: the name and the
// uncentred bank. The mean and the centred rows are recomputed on load by
// the same code, so a round trip reproduces them bit for bit; encoding/json
// writes float64 in its shortest round-tripping form.
type samplerJSON struct {
	Sampler string      `json:"sampler"`
	Version int         `json:"version"`
	K       int         `json:"K"`
	D       int         `json:"D"`
	Bank    [][]float64 `json:"bank"`
}

// MarshalJSON implements json.Marshaler.
func (s *Sampler) MarshalJSON() ([]byte, error) {
	j := samplerJSON{Sampler: s.name, Version: samplerJSONVersion, Bank: [][]float64{}}
	if s.bank != nil {
		j.K, j.D, j.Bank = s.bank.k, s.bank.d, s.bank.rows
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements json.Unmarshaler. Unknown fields, trailing data,
// a wrong sampler name or version and malformed banks are refused with an
// error naming the field; on error the receiver is unchanged. An empty
// sampler (a registry default) takes the name stored in the JSON.
func (s *Sampler) UnmarshalJSON(data []byte) error {
	var j samplerJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("prior: decoding sampler JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("prior: trailing data after sampler JSON")
	}
	if !IsName(j.Sampler) {
		return fmt.Errorf("prior: sampler JSON field \"sampler\" = %q, want one of %q", j.Sampler, Names())
	}
	if s.name != "" && j.Sampler != s.name {
		return fmt.Errorf("prior: sampler JSON field \"sampler\" = %q, this sampler is %q", j.Sampler, s.name)
	}
	if j.Version != samplerJSONVersion {
		return fmt.Errorf("prior: sampler JSON field \"version\" = %d, want %d", j.Version, samplerJSONVersion)
	}
	ns := Sampler{name: j.Sampler}
	if len(j.Bank) > 0 || j.K != 0 || j.D != 0 {
		b, err := NewBank(j.K, j.D, j.Bank)
		if err != nil {
			return fmt.Errorf("prior: sampler JSON fields \"K\", \"D\", \"bank\": %w", err)
		}
		ns.setBank(b)
	}
	*s = ns
	return nil
}
