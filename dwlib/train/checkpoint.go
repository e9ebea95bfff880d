package train

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/calib"
	"github.com/internal-dw/dwgo/dwlib/internal/atomicfile"
	"github.com/internal-dw/dwgo/dwlib/internal/canonjson"
	"github.com/internal-dw/dwgo/dwlib/noise"
)

// Checkpoint files. A file is the magic line, the SHA-256 of the body, and the body: a gob of
// checkpointBody. Values are stored in their own dtype, so a resumed run continues bit for bit.
//
// What a session checkpoint holds: every context variable (the forecaster's parameters and the
// optimizer's moments and step counters), the epoch, the per-epoch records, the best validation
// loss, its epoch and its parameters, the patience counter, the states of the window-sampling and
// probe/JReg random generators, and for Internal-DW the calibration controller's whole state
// (gains, moments, probe counts, gain history, and the noise sampler's state and configuration).
//
// A checkpoint is refused, with nothing changed, when the file is not a checkpoint, when its
// checksum does not match (truncated or corrupt), when it was written for another configuration
// (the error lists the fields that differ) or when a variable's shape or dtype differs.
const (
	checkpointMagic   = "dwgo checkpoint\n"
	checkpointVersion = 1
)

// ModelFile and SessionFile are the two kinds of checkpoint: parameters only (the best model of a
// run) and everything needed to resume.
const (
	kindSession = "session"
	kindModel   = "model"
)

type checkpointBody struct {
	Version     int
	Kind        string
	Fingerprint []byte // canonical JSON of the run identity (see fingerprint)

	Epoch     int
	History   []EpochRecord
	BestEpoch int
	BestVal   float64
	SinceBest int

	WindowRNG, TrainerRNG []byte
	TrainerSteps          int
	Controller            []byte // JSON, DW only

	Variables []savedVar
	Best      []savedVar
}

// Save writes a resumable checkpoint of the session to path (atomically, see
// dwlib/internal/atomicfile: a temporary file of its own, flushed to disk and renamed over path, so
// an interrupted write never leaves a half-written checkpoint).
func (s *Session) Save(path string) error {
	body, err := s.body(kindSession)
	if err != nil {
		return err
	}
	return writeCheckpoint(path, body)
}

// SaveModel writes the minimum-validation parameters only (the current ones before any epoch).
func (s *Session) SaveModel(path string) error {
	body, err := s.body(kindModel)
	if err != nil {
		return err
	}
	return writeCheckpoint(path, body)
}

func (s *Session) body(kind string) (*checkpointBody, error) {
	fp, err := s.fingerprint()
	if err != nil {
		return nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	b := &checkpointBody{Version: checkpointVersion, Kind: kind, Fingerprint: fp, Epoch: s.epoch,
		History: s.history, BestEpoch: s.bestEpoch, BestVal: s.bestVal, SinceBest: s.sinceBest}
	if kind == kindModel {
		if b.Variables = s.best; b.Variables == nil {
			if b.Variables, err = saveVars(s.f.Store(), ModelScope); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	if b.WindowRNG, err = s.winSrc.MarshalBinary(); err != nil {
		return nil, err
	}
	if b.TrainerRNG, err = s.tr.src.MarshalBinary(); err != nil {
		return nil, err
	}
	b.TrainerSteps = s.tr.steps
	if s.tr.ctrl != nil {
		if b.Controller, err = json.Marshal(s.tr.ctrl); err != nil {
			return nil, fmt.Errorf("train: checkpoint: %w", err)
		}
	}
	if b.Variables, err = saveVars(s.f.Store(), ""); err != nil {
		return nil, err
	}
	b.Best = s.best
	return b, nil
}

func writeCheckpoint(path string, body *checkpointBody) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(body); err != nil {
		return fmt.Errorf("train: encoding checkpoint %s: %w", path, err)
	}
	sum := sha256.Sum256(buf.Bytes())
	out := make([]byte, 0, len(checkpointMagic)+len(sum)+buf.Len())
	out = append(append(append(out, checkpointMagic...), sum[:]...), buf.Bytes()...)
	if err := atomicfile.Write(path, out, 0o644); err != nil {
		return fmt.Errorf("train: writing checkpoint: %w", err)
	}
	return nil
}

func readCheckpoint(path, kind string) (*checkpointBody, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("train: reading checkpoint: %w", err)
	}
	if !bytes.HasPrefix(raw, []byte(checkpointMagic)) {
		return nil, fmt.Errorf("train: %s is not a dwgo checkpoint (bad magic)", path)
	}
	raw = raw[len(checkpointMagic):]
	if len(raw) < sha256.Size {
		return nil, fmt.Errorf("train: checkpoint %s is corrupt: truncated header", path)
	}
	want, payload := raw[:sha256.Size], raw[sha256.Size:]
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], want) {
		return nil, fmt.Errorf("train: checkpoint %s is corrupt: checksum mismatch (truncated or modified file)", path)
	}
	var b checkpointBody
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&b); err != nil {
		return nil, fmt.Errorf("train: checkpoint %s is corrupt: %w", path, err)
	}
	if b.Version != checkpointVersion {
		return nil, fmt.Errorf("train: checkpoint %s has format version %d, this program reads %d", path, b.Version, checkpointVersion)
	}
	if b.Kind != kind {
		return nil, fmt.Errorf("train: %s is a %q checkpoint, want a %q checkpoint", path, b.Kind, kind)
	}
	return &b, nil
}

// Load restores a checkpoint written by Save into a freshly created session with the same
// configuration. Everything is checked before anything changes: on error the session is as it was.
func (s *Session) Load(path string) error {
	b, err := readCheckpoint(path, kindSession)
	if err != nil {
		return err
	}
	if err := s.checkFingerprint(path, b.Fingerprint); err != nil {
		return err
	}
	scope := s.f.Store()
	if err := checkVars(scope, b.Variables, true); err != nil {
		return fmt.Errorf("train: checkpoint %s does not fit: %w", path, err)
	}
	if b.Best != nil {
		if err := checkVars(scope, b.Best, true); err != nil {
			return fmt.Errorf("train: checkpoint %s (best parameters) does not fit: %w", path, err)
		}
	}
	var winSrc, trSrc rand.PCG
	if err := winSrc.UnmarshalBinary(b.WindowRNG); err != nil {
		return fmt.Errorf("train: checkpoint %s: window generator: %w", path, err)
	}
	if err := trSrc.UnmarshalBinary(b.TrainerRNG); err != nil {
		return fmt.Errorf("train: checkpoint %s: trainer generator: %w", path, err)
	}
	if (b.Controller != nil) != (s.tr.ctrl != nil) {
		return fmt.Errorf("train: checkpoint %s: calibration state present=%v, this run needs it=%v", path, b.Controller != nil, s.tr.ctrl != nil)
	}
	if s.tr.ctrl != nil {
		// Validate on a scratch controller first: the real one is replaced only if all is well.
		smp, err := freshSampler(s.tr.ctrl.Sampler())
		if err != nil {
			return err
		}
		scratch, err := calib.New(s.tr.ctrl.Config(), smp)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b.Controller, scratch); err != nil {
			return fmt.Errorf("train: checkpoint %s: %w", path, err)
		}
	}
	if b.Epoch < 0 || b.Epoch != len(b.History) || b.BestEpoch < 0 || b.BestEpoch > b.Epoch {
		return fmt.Errorf("train: checkpoint %s is inconsistent: epoch %d, %d records, best epoch %d", path, b.Epoch, len(b.History), b.BestEpoch)
	}

	// Apply.
	if err := loadVars(scope, b.Variables, true); err != nil {
		return fmt.Errorf("train: checkpoint %s: %w", path, err)
	}
	if s.tr.ctrl != nil {
		if err := json.Unmarshal(b.Controller, s.tr.ctrl); err != nil { // validated above
			return fmt.Errorf("train: checkpoint %s: %w", path, err)
		}
	}
	*s.winSrc, *s.tr.src = winSrc, trSrc
	s.tr.steps = b.TrainerSteps
	s.epoch, s.history = b.Epoch, slices.Clone(b.History)
	s.bestEpoch, s.bestVal, s.sinceBest, s.best = b.BestEpoch, b.BestVal, b.SinceBest, b.Best
	return nil
}

// LoadModel loads the parameters of a checkpoint written by SaveModel into f. The checkpoint must
// have been written by a session with the same meta (the caller's run identity, compared as
// canonical JSON; see NewSession) and a forecaster of the same configuration: the best parameters
// of another run are refused with an *IdentityError naming the differing fields, with nothing
// loaded.
func LoadModel(path string, f Model, meta any) error {
	b, err := readCheckpoint(path, kindModel)
	if err != nil {
		return err
	}
	stored, err := modelIdentity(b.Fingerprint)
	if err != nil {
		return fmt.Errorf("train: checkpoint %s is corrupt: its identity does not decode: %w", path, err)
	}
	mine, err := canonjson.Marshal(struct {
		Meta  any `json:"meta"`
		Model any `json:"model"`
	}{meta, modelIdentityOf(f)})
	if err != nil {
		return fmt.Errorf("train: run identity: %w", err)
	}
	if err := checkIdentity(path, stored, mine); err != nil {
		return err
	}
	if err := checkVars(f.Store(), b.Variables, true); err != nil {
		return fmt.Errorf("train: checkpoint %s does not fit: %w", path, err)
	}
	return loadVars(f.Store(), b.Variables, false)
}

// CheckBest verifies that the model checkpoint at path (written by SaveModel) holds exactly this
// session's minimum-validation parameters: a readable checkpoint of this run, of the best epoch,
// with the same values. A resumed run calls it so that a missing, truncated, foreign or stale
// best checkpoint (one written for an epoch the session has not reached, when a run was killed
// between writing the two files) is found before training goes on; SaveModel then rewrites it from
// the session's own copy.
func (s *Session) CheckBest(path string) error {
	b, err := readCheckpoint(path, kindModel)
	if err != nil {
		return err
	}
	if err := s.checkFingerprint(path, b.Fingerprint); err != nil {
		return err
	}
	if b.BestEpoch != s.bestEpoch {
		return fmt.Errorf("train: %s holds the parameters of epoch %d, this run's best epoch is %d", path, b.BestEpoch, s.bestEpoch)
	}
	want := s.best
	if want == nil {
		if want, err = saveVars(s.f.Store(), ModelScope); err != nil {
			return err
		}
	}
	if !sameVars(b.Variables, want) {
		return fmt.Errorf("train: %s does not hold this run's best parameters (epoch %d)", path, s.bestEpoch)
	}
	return nil
}

// CheckpointInfo describes a checkpoint file without loading it into a model: what it stores.
type CheckpointInfo struct {
	Path, Kind  string
	Bytes       int64
	Fingerprint json.RawMessage // the run identity it must be resumed with
	Epoch       int             // completed epochs
	History     []EpochRecord
	BestEpoch   int
	BestVal     float64
	SinceBest   int
	Variables   []VariableInfo // every stored variable (parameters and optimizer state)
	BestStored  bool           // whether the minimum-validation parameters are stored too
	HasRNG      bool           // window-sampling and probe/JReg generator states
	Controller  json.RawMessage
}

// VariableInfo is one stored variable.
type VariableInfo struct {
	Scope, Name, DType string
	Dims               []int
	Trainable          bool
}

// Inspect reads and verifies a checkpoint (magic, checksum, format) and describes its content.
func Inspect(path string) (*CheckpointInfo, error) {
	var b *checkpointBody
	var err error
	if b, err = readCheckpoint(path, kindSession); err != nil {
		var errModel error
		if b, errModel = readCheckpoint(path, kindModel); errModel != nil {
			return nil, err
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	info := &CheckpointInfo{Path: path, Kind: b.Kind, Bytes: st.Size(), Fingerprint: b.Fingerprint, Epoch: b.Epoch,
		History: b.History, BestEpoch: b.BestEpoch, BestVal: b.BestVal, SinceBest: b.SinceBest,
		BestStored: b.Best != nil, HasRNG: b.WindowRNG != nil && b.TrainerRNG != nil, Controller: b.Controller}
	for _, v := range b.Variables {
		info.Variables = append(info.Variables, VariableInfo{Scope: v.Scope, Name: v.Name, DType: v.DType, Dims: v.Dims, Trainable: v.Trainable})
	}
	return info, nil
}

// freshSampler is an empty sampler of smp's kind for a checkpoint's JSON to fill: noise.New(name)
// where the registry builds one without a configuration, else the zero value of smp's type. The
// spectral sampler needs its field layout to be built, which noise.New cannot know, but its JSON
// carries the layout and UnmarshalJSON rebuilds it.
func freshSampler(smp noise.Sampler) (noise.Sampler, error) {
	s, err := noise.New(smp.Name())
	if err == nil {
		return s, nil
	}
	if t := reflect.TypeOf(smp); t.Kind() == reflect.Pointer {
		if z, ok := reflect.New(t.Elem()).Interface().(noise.Sampler); ok {
			return z, nil
		}
	}
	return nil, err
}
