package data

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ManifestPrefix marks a manifest as a testbed name: Load("manifest:/path/m.json", opt).
const ManifestPrefix = "manifest:"

// Manifest describes preprocessed real data (the paper's iEEG or movie-fMRI arrays) for users
// who have it. It names either participants with repeated recordings of one movie (iEEG) or
// subjects (fMRI), never both. Every file path is relative to the manifest's directory (or
// absolute); a data file is a time × channels matrix (.npy float32/float64 little-endian, or
// CSV, see ReadMatrix), a stimulus file the time × features matrix of the same movie steps.
// Stimulus row t is the drive acting over t -> t+1 (Series.Drive).
//
//	{"name": "ieeg", "chunk_len": 1024,
//	 "split": {"val_start": 7000, "test_start": 8500, "gap": 256},
//	 "participants": [{"id": "P01", "recordings": [{"id": "run1", "data": "p01/run1.npy", "stimulus": "clip.npy"}]}]}
//
//	{"name": "hcp", "split": {"train": ["S01", "S02"], "val": ["S03"], "test": ["S04"]},
//	 "subjects": [{"id": "S01", "data": "s01.npy", "stimulus": "movie.npy"}, ...]}
//
// Participants: one participant per dataset (Options.Participant is the index, so StateDim is
// fixed); its recordings must have equal lengths and channel counts; the movie-time split puts
// steps [0, val_start-gap) in training, [val_start, test_start-gap) in validation and
// [test_start, end) in test (end 0: the recordings' length), each cut into chunks of chunk_len
// steps (default 1024). Without split: 70/15/15 with gap 256 (MovieSplit).
//
// Subjects: each subject is one unit of the dataset (Dataset.Subjects), all of equal length;
// split lists subject ids per split (every subject in exactly one), or without split a 70/15/15
// split drawn from Options.Seed (RandomSplit).
type Manifest struct {
	Name         string                `json:"name"`
	ChunkLen     int                   `json:"chunk_len,omitempty"`
	Split        *ManifestSplit        `json:"split,omitempty"`
	Participants []ManifestParticipant `json:"participants,omitempty"`
	Subjects     []ManifestFile        `json:"subjects,omitempty"`
}

// ManifestSplit holds the split boundaries: movie steps for participants, id lists for subjects.
type ManifestSplit struct {
	ValStart  int  `json:"val_start,omitempty"`
	TestStart int  `json:"test_start,omitempty"`
	End       int  `json:"end,omitempty"`
	Gap       *int `json:"gap,omitempty"` // nil: 256

	Train []string `json:"train,omitempty"`
	Val   []string `json:"val,omitempty"`
	Test  []string `json:"test,omitempty"`
}

// ManifestParticipant is one participant and its recordings of the movie.
type ManifestParticipant struct {
	ID         string         `json:"id"`
	Recordings []ManifestFile `json:"recordings"`
}

// ManifestFile is one recording or subject: its data matrix and optional stimulus features.
type ManifestFile struct {
	ID       string `json:"id"`
	Data     string `json:"data"`
	Stimulus string `json:"stimulus,omitempty"`
}

// ReadManifest parses a manifest (unknown fields are errors: a misspelt field would otherwise be
// silently ignored) and checks its structure; the data files are read by Dataset.
func ReadManifest(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("data: manifest: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("data: manifest %s: %w", path, err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("data: manifest %s: %w", path, err)
	}
	return &m, nil
}

func (m *Manifest) check() error {
	if m.Name == "" || !validManifestName(m.Name) {
		return fmt.Errorf("field name %q: give a name of a-z, 0-9, '-' and '_' (it names the runs)", m.Name)
	}
	if (len(m.Participants) > 0) == (len(m.Subjects) > 0) {
		return fmt.Errorf("give either participants or subjects (not both, not neither)")
	}
	if m.ChunkLen < 0 {
		return fmt.Errorf("field chunk_len %d must be >= 1 (0: 1024)", m.ChunkLen)
	}
	files := func(field string, fs []ManifestFile, needID bool) error {
		ids := map[string]bool{}
		for i, f := range fs {
			at := fmt.Sprintf("%s[%d]", field, i)
			if f.Data == "" {
				return fmt.Errorf("field %s.data is empty", at)
			}
			if needID && f.ID == "" {
				return fmt.Errorf("field %s.id is empty (the split names subjects by id)", at)
			}
			if f.ID != "" && ids[f.ID] {
				return fmt.Errorf("field %s.id %q is used twice", at, f.ID)
			}
			ids[f.ID] = true
			if (f.Stimulus != "") != (fs[0].Stimulus != "") {
				return fmt.Errorf("field %s.stimulus: give a stimulus for every entry or for none", at)
			}
		}
		return nil
	}
	for i, p := range m.Participants {
		if len(p.Recordings) == 0 {
			return fmt.Errorf("field participants[%d].recordings is empty", i)
		}
		if err := files(fmt.Sprintf("participants[%d].recordings", i), p.Recordings, false); err != nil {
			return err
		}
	}
	if len(m.Subjects) > 0 {
		if err := files("subjects", m.Subjects, true); err != nil {
			return err
		}
		if sp := m.Split; sp != nil {
			if sp.ValStart != 0 || sp.TestStart != 0 || sp.End != 0 || sp.Gap != nil {
				return fmt.Errorf("field split: val_start, test_start, end and gap are movie steps for participants; subjects are split by id lists (train, val, test)")
			}
			seen := map[string]string{}
			for _, l := range []struct {
				name string
				ids  []string
			}{{"train", sp.Train}, {"val", sp.Val}, {"test", sp.Test}} {
				if len(l.ids) == 0 {
					return fmt.Errorf("field split.%s is empty", l.name)
				}
				for _, id := range l.ids {
					if !slices.ContainsFunc(m.Subjects, func(f ManifestFile) bool { return f.ID == id }) {
						return fmt.Errorf("field split.%s: subject %q is not in subjects", l.name, id)
					}
					if prev, ok := seen[id]; ok {
						return fmt.Errorf("field split.%s: subject %q is already in split.%s", l.name, id, prev)
					}
					seen[id] = l.name
				}
			}
			if len(seen) != len(m.Subjects) {
				return fmt.Errorf("field split: %d of %d subjects are in no split", len(m.Subjects)-len(seen), len(m.Subjects))
			}
		}
	} else if sp := m.Split; sp != nil && (len(sp.Train) > 0 || len(sp.Val) > 0 || len(sp.Test) > 0) {
		return fmt.Errorf("field split: train/val/test id lists are for subjects; participants are split by movie steps (val_start, test_start, end, gap)")
	}
	return nil
}

func validManifestName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// Files lists every data and stimulus file the manifest names, resolved against dir, in
// manifest order (each once), for hashing and provenance.
func (m *Manifest) Files(dir string) []string {
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, p := range m.Participants {
		for _, r := range p.Recordings {
			add(r.Data)
			add(r.Stimulus)
		}
	}
	for _, s := range m.Subjects {
		add(s.Data)
		add(s.Stimulus)
	}
	return out
}

// LoadManifest reads the manifest at path and its files and builds the Dataset: a participant's
// movie-time chunks (opt.Participant picks it) or the subjects. The state is standardised with
// training statistics only; the stimulus keeps its raw scale (as the synthetic drives).
func LoadManifest(path string, opt Options) (*Dataset, error) {
	m, err := ReadManifest(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	read := func(field string, f ManifestFile) (Series, error) {
		resolve := func(p string) string {
			if filepath.IsAbs(p) {
				return p
			}
			return filepath.Join(dir, p)
		}
		x, err := ReadMatrix(resolve(f.Data))
		if err != nil {
			return Series{}, fmt.Errorf("data: manifest %s: field %s.data: %w", path, field, err)
		}
		s := Series{X: x}
		if f.Stimulus != "" {
			u, err := ReadMatrix(resolve(f.Stimulus))
			if err != nil {
				return Series{}, fmt.Errorf("data: manifest %s: field %s.stimulus: %w", path, field, err)
			}
			if len(u) != len(x) {
				return Series{}, fmt.Errorf("data: manifest %s: field %s: stimulus %s has %d rows, data %s has %d (one feature row per step)", path, field, f.Stimulus, len(u), f.Data, len(x))
			}
			s.Drive = u
		}
		return s, nil
	}
	same := func(field string, s, first Series, firstField string) error {
		if width(s.X) != width(first.X) || width(s.Drive) != width(first.Drive) {
			return fmt.Errorf("data: manifest %s: field %s has %d channels and %d features, %s has %d and %d", path, field, width(s.X), width(s.Drive), firstField, width(first.X), width(first.Drive))
		}
		if s.Len() != first.Len() {
			return fmt.Errorf("data: manifest %s: field %s has %d steps, %s has %d (recordings of one movie and subjects must be aligned)", path, field, s.Len(), firstField, first.Len())
		}
		return nil
	}
	name := "manifest-" + m.Name
	fit := opt.fit(false)
	if len(m.Subjects) > 0 {
		var all []Series
		for i, f := range m.Subjects {
			field := fmt.Sprintf("subjects[%d]", i)
			s, err := read(field, f)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				if err := same(field, s, all[0], "subjects[0]"); err != nil {
					return nil, err
				}
			}
			all = append(all, s)
		}
		var sp Split
		if m.Split == nil {
			if sp, err = RandomSplit(len(all), opt.Seed); err != nil {
				return nil, fmt.Errorf("data: manifest %s: %w", path, err)
			}
		} else {
			idx := func(ids []string) []int {
				var out []int
				for i, f := range m.Subjects {
					if slices.Contains(ids, f.ID) {
						out = append(out, i)
					}
				}
				return out
			}
			sp = Split{Train: idx(m.Split.Train), Val: idx(m.Split.Val), Test: idx(m.Split.Test)}
		}
		d, err := datasetFromSplit(name, all, sp, fit)
		if err != nil {
			return nil, err
		}
		d.Subjects = true
		return d, nil
	}
	if opt.Participant < 0 || opt.Participant >= len(m.Participants) {
		return nil, fmt.Errorf("data: manifest %s: participant %d (Options.Participant) is not in participants[0..%d]", path, opt.Participant, len(m.Participants)-1)
	}
	p := m.Participants[opt.Participant]
	var recs []Series
	for i, f := range p.Recordings {
		field := fmt.Sprintf("participants[%d].recordings[%d]", opt.Participant, i)
		s, err := read(field, f)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			if err := same(field, s, recs[0], fmt.Sprintf("participants[%d].recordings[0]", opt.Participant)); err != nil {
				return nil, err
			}
		}
		recs = append(recs, s)
	}
	plan, err := m.moviePlan(recs[0].Len())
	if err != nil {
		return nil, fmt.Errorf("data: manifest %s: %w", path, err)
	}
	return movieDataset(name, recs, plan, fit)
}

// moviePlan is the participants' movie-time split for recordings of T steps.
func (m *Manifest) moviePlan(T int) (MovieSplitPlan, error) {
	chunk := m.ChunkLen
	if chunk == 0 {
		chunk = 1024
	}
	sp := m.Split
	if sp == nil || sp.ValStart == 0 && sp.TestStart == 0 && sp.End == 0 {
		gap := 256
		if sp != nil && sp.Gap != nil {
			gap = *sp.Gap
		}
		p, err := MovieSplit(T, chunk, gap)
		if err != nil {
			return p, fmt.Errorf("the default 70/15/15 movie split of %d steps: %w", T, err)
		}
		return p, nil
	}
	gap := 256
	if sp.Gap != nil {
		gap = *sp.Gap
	}
	end := sp.End
	if end == 0 {
		end = T
	}
	switch {
	case gap < 0:
		return MovieSplitPlan{}, fmt.Errorf("field split.gap %d must be >= 0", gap)
	case !(0 < sp.ValStart && sp.ValStart < sp.TestStart && sp.TestStart < end && end <= T):
		return MovieSplitPlan{}, fmt.Errorf("fields split.val_start %d, test_start %d, end %d: need 0 < val_start < test_start < end <= %d (the recordings' steps)", sp.ValStart, sp.TestStart, end, T)
	}
	p := MovieSplitPlan{ChunkLen: chunk, Gap: gap, Bounds: [2]int{sp.ValStart, sp.TestStart}, Length: end}
	if err := p.cut(); err != nil {
		return p, fmt.Errorf("fields split and chunk_len: %w", err)
	}
	return p, nil
}

// IsManifest reports whether a testbed name is a manifest ("manifest:PATH") and returns the path.
func IsManifest(name string) (string, bool) {
	return strings.CutPrefix(name, ManifestPrefix)
}
