//go:build unix

package kernelext

import (
	"encoding/gob"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// fakeGoNB plays GoNB's side of the two named pipes gonbui talks to: it
// records every display message and acknowledges gonbui.Sync requests. It
// lets tests check the exact messages a notebook would receive.
type fakeGoNB struct {
	mu   sync.Mutex
	msgs []*protocol.DisplayData
}

var fake struct {
	once sync.Once
	f    *fakeGoNB
	err  error
}

// notebookMode switches gonbui to notebook mode for the test, connected to
// a fake GoNB (shared by all tests, since gonbui keeps its pipes open for the
// life of the process), and clears recorded messages.
func notebookMode(t *testing.T) *fakeGoNB {
	t.Helper()
	fake.once.Do(func() { fake.f, fake.err = startFakeGoNB() })
	if fake.err != nil {
		t.Fatalf("fake GoNB: %v", fake.err)
	}
	fake.f.mu.Lock()
	fake.f.msgs = nil
	fake.f.mu.Unlock()
	gonbui.IsNotebook = true
	t.Cleanup(func() { gonbui.IsNotebook = false })
	return fake.f
}

// messages returns the display messages received so far.
func (f *fakeGoNB) messages() []*protocol.DisplayData {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*protocol.DisplayData(nil), f.msgs...)
}

func startFakeGoNB() (*fakeGoNB, error) {
	dir, err := os.MkdirTemp("", "fakegonb")
	if err != nil {
		return nil, err
	}
	toKernel, fromKernel := filepath.Join(dir, "pipe"), filepath.Join(dir, "pipe_back")
	for _, p := range []string{toKernel, fromKernel} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			return nil, err
		}
	}
	os.Setenv(protocol.GONB_PIPE_ENV, toKernel)
	os.Setenv(protocol.GONB_PIPE_BACK_ENV, fromKernel)

	f := &fakeGoNB{}
	encReady := make(chan *gob.Encoder, 1)
	go func() { // opening blocks until gonbui opens its reading end.
		w, err := os.OpenFile(fromKernel, os.O_WRONLY, 0)
		if err != nil {
			panic(err)
		}
		encReady <- gob.NewEncoder(w)
	}()
	go func() { // opening blocks until gonbui opens its writing end.
		r, err := os.OpenFile(toKernel, os.O_RDONLY, 0)
		if err != nil {
			panic(err)
		}
		dec := gob.NewDecoder(r)
		var enc *gob.Encoder
		for {
			msg := &protocol.DisplayData{}
			if err := dec.Decode(msg); err != nil {
				return
			}
			if cv, ok := msg.Data[protocol.MIMECommValue].(protocol.CommValue); ok && cv.Address == protocol.GonbuiSyncAddress {
				if enc == nil {
					enc = <-encReady
				}
				_ = enc.Encode(&protocol.CommValue{Address: protocol.GonbuiSyncAckAddress, Value: cv.Value})
				continue
			}
			f.mu.Lock()
			f.msgs = append(f.msgs, msg)
			f.mu.Unlock()
		}
	}()
	return f, nil
}
