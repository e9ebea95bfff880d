package textprogress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// fakeClock is advanced by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// testProgress returns an unstarted Progress with the given view and clock.
func testProgress(v View, clock *fakeClock) *Progress {
	return NewClocked(func() View { return v }, clock.now)
}

func TestSummary(t *testing.T) {
	tests := []struct {
		s    State
		want string
	}{
		{State{Total: 100, Done: 25, Elapsed: 10 * time.Second}, "25/100 (25%) 10.0s, ETA 30.0s"},
		{State{Total: 10, Done: 0, Elapsed: time.Second}, "0/10 (0%) 1.0s"},
		{State{Total: 0, Done: 7, Elapsed: 500 * time.Millisecond, Msg: "x"}, "7 500ms | x"},
		{State{Total: 4, Done: 4, Elapsed: 65 * time.Second, Final: true, Msg: "loss .1"}, "done 4/4 (100%) in 1m05s | loss .1"},
		{State{Total: 2, Done: 1, Elapsed: 2 * time.Hour}, "1/2 (50%) 2h00m, ETA 2h00m"},
	}
	for _, tc := range tests {
		if got := tc.s.Summary(); got != tc.want {
			t.Errorf("Summary(%+v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestLines checks the log display: start line, throttled updates, final line.
func TestLines(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := testProgress(&LineView{W: &out}, clock)
	p.Start(10, "training")
	for i := range 10 {
		clock.advance(time.Second)
		p.Add(1, "epoch "+string(rune('0'+i)))
	}
	p.Done()
	p.Done() // no-op
	want := "training: started (total 10)\n" +
		"training: 5/10 (50%) 5.0s, ETA 5.0s | epoch 4\n" +
		"training: 10/10 (100%) 10.0s | epoch 9\n" +
		"training: done 10/10 (100%) in 10.0s | epoch 9\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestBar(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := testProgress(NewBarView(&out), clock)
	p.Start(4, "sweep")
	for range 4 {
		clock.advance(time.Second)
		p.Step(1, "")
	}
	p.Finish()
	got := out.String()
	for _, want := range []string{"\rsweep [>", "[===============>", "\rsweep [==============================] done 4/4 (100%) in 4.0s"} {
		if !strings.Contains(got, want) {
			t.Errorf("bar output lacks %q:\n%q", want, got)
		}
	}
	if !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != 1 {
		t.Errorf("bar output should be one redrawn line ending in a newline: %q", got)
	}
}

// TestRestart checks a Reporter reused for two loops (Start after Start).
func TestRestart(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := testProgress(&LineView{W: &out}, clock)
	p.Start(2, "a")
	p.Step(1, "")
	p.Start(3, "b") // finishes "a"
	p.Step(3, "")
	p.Finish()
	got := out.String()
	for _, want := range []string{"a: done 1/2 (50%)", "b: done 3/3 (100%)"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
