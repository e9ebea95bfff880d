package progress

import (
	"fmt"
	"slices"
	"testing"
)

// loop stands for library code that reports progress.
func loop(rep Reporter, n int) {
	rep = OrNop(rep)
	rep.Start(n, "loop")
	defer rep.Finish()
	for i := range n {
		rep.Step(1, fmt.Sprintf("i=%d", i))
	}
}

func TestRecorderAndNop(t *testing.T) {
	tests := []struct {
		name string
		rep  Reporter
		want []string
	}{
		{"nil", nil, nil},
		{"nop", Nop(), nil},
		{"recorder", &Recorder{}, []string{"start 2 loop", "step 1 i=0", "step 1 i=1", "finish"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			loop(tc.rep, 2) // must not panic for nil
			if r, ok := tc.rep.(*Recorder); ok {
				if !slices.Equal(r.Events, tc.want) {
					t.Errorf("events = %q, want %q", r.Events, tc.want)
				}
				if r.Done != 2 {
					t.Errorf("Done = %d, want 2", r.Done)
				}
			}
		})
	}
}

func ExampleReporter() {
	rec := &Recorder{}
	loop(rec, 3)
	fmt.Println(rec.Events)
	// Output: [start 3 loop step 1 i=0 step 1 i=1 step 1 i=2 finish]
}
