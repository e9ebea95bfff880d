package kernelext

import (
	"io"
	"os"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// Output receives the text fallbacks (figure paths, Markdown tables) when
// not running in a notebook; nil (the default) means os.Stdout at the time
// of the call. Tests may replace it.
var Output io.Writer

func output() io.Writer {
	if Output != nil {
		return Output
	}
	return os.Stdout
}

// InNotebook reports whether the program runs as a GoNB cell (GoNB sets
// $GONB_PIPE for the programs it runs).
func InNotebook() bool { return gonbui.IsNotebook }

// publish sends one display_data bundle (MIME type → content) to the
// notebook. A non-empty displayID creates, then updates in place, the output
// with that id (Jupyter's update_display_data). It returns the (sticky)
// communication error of gonbui, if any.
func publish(data map[protocol.MIMEType]any, metadata map[string]any, displayID string) error {
	gonbui.SendData(&protocol.DisplayData{Data: data, Metadata: metadata, DisplayID: displayID})
	return gonbui.Error()
}

// flush waits until GoNB has received everything sent so far, so outputs are
// not lost if the cell's program exits right after.
func flush() error {
	gonbui.Sync()
	return gonbui.Error()
}
