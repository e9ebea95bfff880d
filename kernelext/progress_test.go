package kernelext

import (
	"strings"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/textprogress"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// fakeClock is advanced by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// TestProgressNotebook checks the notebook bar: all updates share one
// display id (so Jupyter updates in place), updates are throttled, and the
// final state is sent. (The text views are textprogress's, tested there.)
func TestProgressNotebook(t *testing.T) {
	nb := notebookMode(t)
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := textprogress.NewClocked(defaultView, clock.now)
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
