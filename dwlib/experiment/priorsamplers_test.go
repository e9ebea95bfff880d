package experiment

import (
	"bytes"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/prior"
)

// The factor-AR and subject-AR banks are built from the training split with the run's K and the
// resolved grid, and the record names the selection; prior-subject is refused, by name, where the
// dataset has no subjects.
func TestPriorFactorAndSubjectSamplers(t *testing.T) {
	for _, tc := range []struct {
		testbed, sampler string
		wantErr          string
	}{
		{"ieeg-synth", prior.FactorName, ""},
		{"fmri-synth", prior.SubjectName, ""},
		{"fmri-synth", prior.FactorName, ""},
		{"mackey-glass", prior.FactorName, ""},
		{"ieeg-synth", prior.SubjectName, "no subject structure"},
		{"mackey-glass", prior.SubjectName, "no subject structure"},
	} {
		t.Run(tc.testbed+"/"+tc.sampler, func(t *testing.T) {
			cfg, err := Resolve(Quick, tc.testbed, "dw", 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Train.Sampler = tc.sampler
			if !strings.Contains(cfg.Name(), "/dw-"+tc.sampler+"-K") {
				t.Errorf("run name %q does not name the sampler", cfg.Name())
			}
			ds, err := LoadData(cfg, quickOptions(t))
			if err != nil {
				t.Fatal(err)
			}
			got, rec, err := withNoiseSampler(cfg, ds)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.sampler) {
					t.Fatalf("err = %v, want one naming %s and %q", err, tc.sampler, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s, ok := got.Train.NoiseSampler.(*prior.Sampler)
			if !ok || s.Name() != tc.sampler || s.Bank().K() != cfg.Train.K || s.Bank().D() != ds.StateDim {
				t.Fatalf("attached sampler %#v", got.Train.NoiseSampler)
			}
			if rec == nil || rec.Sampler != tc.sampler || rec.BankRows != s.Bank().Len() || len(rec.Candidates) == 0 || rec.Grid.Folds == 0 {
				t.Fatalf("record %+v", rec)
			}
			if tc.sampler == prior.FactorName && (rec.Rank == 0 || rec.Order == 0 || rec.Grid.Purge == 0) {
				t.Errorf("factor record without (rho, p) or purge: %+v", rec)
			}
			var log bytes.Buffer
			logPrior(&log, cfg, rec)
			if !strings.Contains(log.String(), "selected") {
				t.Errorf("log line %q", log.String())
			}
		})
	}
}

// RunConfig.Prior overrides the default grid, field by field.
func TestPriorGridOverride(t *testing.T) {
	cfg, err := Resolve(Quick, "ieeg-synth", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Train.Sampler = prior.FactorName
	ds, err := LoadData(cfg, quickOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	_, def := factorConfig(cfg, ds)
	if def.Folds != 5 || def.Purge != min(128, max(cfg.Train.K, ds.Train[0].Len()/8)) || len(def.Ranks) == 0 || len(def.Orders) == 0 {
		t.Errorf("default grid %+v", def)
	}
	cfg.Prior = &PriorGrid{Folds: 3, Orders: []int{2}}
	_, rec, err := withNoiseSampler(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Grid.Folds != 3 || rec.Grid.Purge != def.Purge || rec.Order != 2 || len(rec.Candidates) != len(def.Ranks) {
		t.Errorf("overridden grid %+v, record order %d, %d candidates", rec.Grid, rec.Order, len(rec.Candidates))
	}
}

// A prior-subject run on fmri-synth trains and records its selection in the result.
func TestPriorSubjectRunRecordsSelection(t *testing.T) {
	cfg, err := Resolve(Quick, "fmri-synth", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Train.Sampler, cfg.Fit.Epochs = prior.SubjectName, 1
	var log bytes.Buffer
	opt := quickOptions(t)
	opt.Log = &log
	r, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Prior == nil || r.Prior.Sampler != prior.SubjectName || len(r.Prior.Candidates) == 0 {
		t.Fatalf("result's prior record %+v", r.Prior)
	}
	if !strings.Contains(log.String(), "prior-subject bank: p=") {
		t.Errorf("log does not show the selection:\n%s", log.String())
	}
	back, err := ReadResult(opt.RunsDir + "/" + cfg.Name() + "/" + ResultFile)
	if err != nil {
		t.Fatal(err)
	}
	if back.Prior == nil || back.Prior.Order != r.Prior.Order {
		t.Errorf("result read back: prior %+v", back.Prior)
	}
}

// data.channels and data.participant give their own run directories, and only on the stand-ins.
func TestDataSuffix(t *testing.T) {
	cfg, err := Resolve(Quick, "ieeg-synth", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	def := cfg.Name()
	cfg.Data.Channels, cfg.Data.Participant = 80, 1
	if got := cfg.Name(); got == def || !strings.Contains(got, "/ieeg-synth-c80-p1/") {
		t.Errorf("name %q (default %q)", got, def)
	}
	if err := cfg.Validate(); err != nil {
		t.Error(err)
	}
	mg, _ := Resolve(Quick, "mackey-glass", "dw", 0, 0)
	mg.Data.Channels = 80
	if err := mg.Validate(); err == nil || !strings.Contains(err.Error(), "data.channels") {
		t.Errorf("mackey-glass with channels: %v", err)
	}
}
