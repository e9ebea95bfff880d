package kernelext

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// fakeClock is advanced by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// testProgress returns an unstarted Progress with the given view and clock.
func testProgress(v progressView, clock *fakeClock) *Progress {
	return &Progress{now: clock.now, newView: func() progressView { return v }}
}

func TestProgressState(t *testing.T) {
	tests := []struct {
		s    progressState
		want string
	}{
		{progressState{Total: 100, Done: 25, Elapsed: 10 * time.Second}, "25/100 (25%) 10.0s, ETA 30.0s"},
		{progressState{Total: 10, Done: 0, Elapsed: time.Second}, "0/10 (0%) 1.0s"},
		{progressState{Total: 0, Done: 7, Elapsed: 500 * time.Millisecond, Msg: "x"}, "7 500ms | x"},
		{progressState{Total: 4, Done: 4, Elapsed: 65 * time.Second, Final: true, Msg: "loss .1"}, "done 4/4 (100%) in 1m05s | loss .1"},
		{progressState{Total: 2, Done: 1, Elapsed: 2 * time.Hour}, "1/2 (50%) 2h00m, ETA 2h00m"},
	}
	for _, tc := range tests {
		if got := tc.s.summary(); got != tc.want {
			t.Errorf("summary(%+v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestProgressLines checks the log fallback: start line, throttled updates, final line.
func TestProgressLines(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := testProgress(&lineView{w: &out}, clock)
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

func TestProgressBar(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := testProgress(newBarView(&out), clock)
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

// TestProgressRestart checks a Reporter reused for two loops (Start after Start).
func TestProgressRestart(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	v := &lineView{w: &out}
	p := testProgress(v, clock)
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

// TestProgressNotebook checks the notebook bar: all updates share one
// display id (so Jupyter updates in place), updates are throttled, and the
// final state is sent.
func TestProgressNotebook(t *testing.T) {
	nb := notebookMode(t)
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := &Progress{now: clock.now, newView: defaultView}
	p.Start(100, "train <b>")
	for range 100 {
		clock.advance(10 * time.Millisecond) // 1 s in total: ~4 throttled updates.
		p.Add(1, "loss .1")
	}
	p.Done()
	msgs := nb.messages()
	if len(msgs) < 3 || len(msgs) > 8 {
		t.Fatalf("got %d display messages, want a handful (throttled)", len(msgs))
	}
	id := msgs[0].DisplayID
	if !strings.HasPrefix(id, "kernelext-progress-") {
		t.Errorf("display id %q", id)
	}
	for _, m := range msgs {
		if m.DisplayID != id {
			t.Errorf("display id changed: %q != %q", m.DisplayID, id)
		}
	}
	last := msgs[len(msgs)-1]
	html, _ := last.Data[protocol.MIMETextHTML].(string)
	plain, _ := last.Data[protocol.MIMETextPlain].(string)
	if !strings.Contains(html, "done 100/100 (100%) in 1.0s | loss .1") || !strings.Contains(html, "train &lt;b&gt;") || !strings.Contains(html, "width:100.0%") {
		t.Errorf("final HTML = %s", html)
	}
	if plain != "train <b>: done 100/100 (100%) in 1.0s | loss .1" {
		t.Errorf("final text/plain = %q", plain)
	}
}
