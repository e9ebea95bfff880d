package kernelext

import (
	"os"
	"testing"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// TestMain makes the tests independent of where they run: even when started
// from a notebook shell cell (where $GONB_PIPE is set), tests begin in
// text mode; notebook-mode tests opt in with notebookMode (fakegonb_test.go).
func TestMain(m *testing.M) {
	os.Unsetenv(protocol.GONB_PIPE_ENV)
	os.Unsetenv(protocol.GONB_PIPE_BACK_ENV)
	os.Unsetenv(ProfileEnv)
	gonbui.IsNotebook = false
	os.Exit(m.Run())
}
