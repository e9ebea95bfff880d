package train

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/internal/canonjson"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// A checkpoint carries the identity of the run that wrote it (its fingerprint): the canonical
// JSON of {"meta": the caller's run identity, "model", "train", "fit"}. A session checkpoint is
// resumed only by a session whose whole fingerprint is identical; a model checkpoint is loaded
// only into a forecaster of the same configuration by a caller with the same meta, so the best
// parameters of one run (method, profile, data...) are never scored as another's.
//
// The JSON is canonical with its integers exact (see dwlib/internal/canonjson): seeds are uint64,
// and identities that differ only beyond float64's 2^53 are still different.

// fingerprint is what must agree between a checkpoint and the session that loads it.
func (s *Session) fingerprint() ([]byte, error) {
	return canonjson.Marshal(identity{Meta: s.meta, Model: modelIdentityOf(s.f), Train: s.tr.cfg, Fit: s.cfg})
}

type identity struct {
	Meta  any       `json:"meta"`
	Model any       `json:"model"`
	Train Config    `json:"train"`
	Fit   FitConfig `json:"fit"`
}

// modelJSON is model.Config with the dtype as a name.
type modelJSON struct {
	Kind                                        string
	StateDim, DriveDim, Hidden, Layers          int
	SSMState, ConvWidth, Expand, Window, BurnIn int
	DType                                       string
	Seed                                        uint64
	// Absent when false, so identities written before the field existed still match.
	ChannelIndependent bool   `json:",omitempty"`
	ChannelDrive       string `json:",omitempty"`
	Shift              string `json:",omitempty"`
}

func toModelJSON(c model.Config) modelJSON {
	return modelJSON{Kind: c.Kind, StateDim: c.StateDim, DriveDim: c.DriveDim, Hidden: c.Hidden, Layers: c.Layers,
		SSMState: c.SSMState, ConvWidth: c.ConvWidth, Expand: c.Expand, Window: c.Window, BurnIn: c.BurnIn,
		DType: c.DType.String(), Seed: c.Seed, ChannelIndependent: c.ChannelIndependent, ChannelDrive: c.ChannelDrive, Shift: c.Shift}
}

// IdentityError is returned (by Load, LoadModel and CheckBest) when a checkpoint was written by
// another run. It keeps both identities so that a caller can name both runs.
type IdentityError struct {
	Path string
	// CheckpointMeta and RunMeta are the "meta" parts of the two identities (canonical JSON; the
	// checkpoint's is "null" when it has none).
	CheckpointMeta, RunMeta json.RawMessage
	// Diffs are the differing fields, "field: checkpoint X, this run Y", sorted.
	Diffs []string
}

func (e *IdentityError) Error() string {
	d := e.Diffs
	if len(d) > 8 {
		d = append(d[:8:8], fmt.Sprintf("and %d more", len(e.Diffs)-8))
	}
	return fmt.Sprintf("train: checkpoint %s was written for another run: %s", e.Path, strings.Join(d, "; "))
}

// checkIdentity compares a checkpoint's fingerprint with this run's (both canonical JSON).
func checkIdentity(path string, stored, mine []byte) error {
	stored, err := canonjson.Canonical(stored)
	if err != nil {
		return fmt.Errorf("train: checkpoint %s is corrupt: its identity does not decode: %w", path, err)
	}
	if bytes.Equal(stored, mine) {
		return nil
	}
	return &IdentityError{Path: path, CheckpointMeta: metaOf(stored), RunMeta: metaOf(mine),
		Diffs: canonjson.Diff(stored, mine, "checkpoint", "this run")}
}

// metaOf extracts the "meta" member of a fingerprint ("null" if absent).
func metaOf(fp []byte) json.RawMessage {
	var m struct {
		Meta json.RawMessage `json:"meta"`
	}
	if json.Unmarshal(fp, &m) != nil || m.Meta == nil {
		return json.RawMessage("null")
	}
	return m.Meta
}

func (s *Session) checkFingerprint(path string, fp []byte) error {
	mine, err := s.fingerprint()
	if err != nil {
		return err
	}
	return checkIdentity(path, fp, mine)
}

// modelIdentity is the part of a fingerprint a model checkpoint is loaded by: the caller's meta
// and the model configuration (the training and epoch-loop settings are the meta's business).
func modelIdentity(fp []byte) ([]byte, error) {
	var m struct {
		Meta  json.RawMessage `json:"meta"`
		Model json.RawMessage `json:"model"`
	}
	if err := json.Unmarshal(fp, &m); err != nil {
		return nil, err
	}
	if m.Meta == nil {
		m.Meta = json.RawMessage("null")
	}
	return canonjson.Marshal(m)
}
