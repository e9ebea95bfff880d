package data

import (
	"math"
	"strings"
	"testing"
)

func TestValidateNamesBadValue(t *testing.T) {
	raw, _ := GenerateNARMA5(smallNARMA())
	for _, tc := range []struct {
		name  string
		bad   func(s *Series)
		wants []string
	}{
		{"nan state", func(s *Series) { s.X[17][2] = math.NaN() }, []string{`"toy"`, "val unit 0", "time 17", "state coordinate 2", "NaN"}},
		{"inf drive", func(s *Series) { s.Drive[5][1] = math.Inf(1) }, []string{"val unit 0", "time 5", "drive coordinate 1", "+Inf"}},
		{"short row", func(s *Series) { s.X[3] = s.X[3][:1] }, []string{"time 3", "1 state coordinates, want 3"}},
		{"drive length", func(s *Series) { s.Drive = s.Drive[:10] }, []string{"10 drive steps for 300 state steps"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			val := raw[1].Clone()
			tc.bad(&val)
			_, err := NewDataset("toy", raw[:1], []Series{val}, raw[2:], false)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestCheckHorizon(t *testing.T) {
	d, err := Load("known-snr", Options{NoCache: true, NumTraj: 5, Length: 64})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.CheckHorizon(16, 48); err != nil {
		t.Errorf("16+48 = 64 steps fit: %v", err)
	}
	err = d.CheckHorizon(16, 49)
	if err == nil || !strings.Contains(err.Error(), "65 steps exceeds") || !strings.Contains(err.Error(), "only 64 steps") {
		t.Errorf("window too long: got %v", err)
	}
	if err := d.CheckHorizon(0, 4); err == nil {
		t.Error("window 0 accepted")
	}
}
