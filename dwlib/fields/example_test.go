package fields_test

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/fields"
)

// Example: a small shear flow, its four channels and how the perturbation at the layers grows.
func Example() {
	cfg := fields.ShearConfig{
		Flow:  fields.FlowConfig{NX: 32, NY: 64, LX: 1, LY: 2, Re: 1000, Sc: 2, DT: 5e-3},
		Width: 0.08, Amp: 0.05, Modes: 2, StepsPerFrame: 100, Frames: 3, Seed: 1,
	}
	frames, err := fields.Shear(cfg)
	if err != nil {
		panic(err)
	}
	n := cfg.Flow.NX * cfg.Flow.NY
	for k, f := range frames {
		maxV := 0.0
		for _, v := range f[3*n:] {
			maxV = max(maxV, math.Abs(v))
		}
		fmt.Printf("t = %.1f: %d channels %v, max |v| %.3f\n", float64(k)*0.5, len(f)/n, fields.Channels, maxV)
	}
	// Output:
	// t = 0.0: 4 channels [tracer pressure u v], max |v| 0.010
	// t = 0.5: 4 channels [tracer pressure u v], max |v| 0.011
	// t = 1.0: 4 channels [tracer pressure u v], max |v| 0.021
}
