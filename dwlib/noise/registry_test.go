package noise

import (
	"strings"
	"testing"
)

type otherConfig struct{}

func (otherConfig) SamplerName() string { return "spectral" }

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		sampler  string
		cfg      []Config
		want     string // error substring; "" for success
		wantBeta float64
	}{
		{"default generic", "generic", nil, "", 0.99},
		{"generic with beta", "generic", []Config{GenericConfig{Beta: 0.9}}, "", 0.9},
		{"generic with pointer config", "generic", []Config{&GenericConfig{Beta: 0.5}}, "", 0.5},
		{"unknown name lists valid names", "gaussian", nil, `unknown sampler "gaussian" (valid: diagonal-gaussian, generic, spectral)`, 0},
		{"config of another sampler", "generic", []Config{otherConfig{}}, `given a config for sampler "spectral"`, 0},
		{"bad beta", "generic", []Config{GenericConfig{Beta: 1.5}}, "GenericConfig.Beta = 1.5", 0},
		{"two configs", "generic", []Config{GenericConfig{}, GenericConfig{}}, "at most one config", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.sampler, tc.cfg...)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Name() != tc.sampler {
				t.Errorf("Name = %q", s.Name())
			}
			if b := s.(*Generic).Beta(); b != tc.wantBeta {
				t.Errorf("Beta = %v, want %v", b, tc.wantBeta)
			}
		})
	}
}

func TestRegisterDuplicatePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering \"generic\" twice did not panic")
		}
	}()
	Register(GenericName, func(Config) (Sampler, error) { return nil, nil })
}
