package fields

import "testing"

// BenchmarkShearStep times one time step of DefaultShear's 64 × 128 grid (four stages of ten 2-D
// FFTs each): DefaultShear's 200 frames of 40 steps cost 8 000 of them per trajectory.
//
//	go test ./dwlib/fields -run '^$' -bench ShearStep
func BenchmarkShearStep(b *testing.B) {
	cfg := DefaultShear(1)
	u, v, c, err := ShearInit(cfg)
	if err != nil {
		b.Fatal(err)
	}
	f, err := NewFlow(cfg.Flow, u, v, c)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		f.Step()
	}
}
