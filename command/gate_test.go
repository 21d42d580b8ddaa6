package command

import (
	"os"
	"sync"

	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/session"
)

// A gate tells a fake session's validation that its reader has started:
// an export that validates alongside reading passes the gate, one that
// validates first waits for it in vain.
var gates sync.Map // path -> chan struct{}

func gate(name string) chan struct{} {
	ch, _ := gates.LoadOrStore(name, make(chan struct{}))
	return ch.(chan struct{})
}

// waitForRead reports whether name's reader started before the test
// process stopped working (hangwatch: no CPU for a while, or far too
// much): a validation run first never sees it.
func waitForRead(name string) bool {
	return hangwatch.Wait(gate(name), hangwatch.Default) == ""
}

type gatedReader struct {
	session.SliceReader
	name string
	once sync.Once
}

func (r *gatedReader) Next() (*session.Entry, error) {
	r.once.Do(func() { close(gate(r.name)) })
	return r.SliceReader.Next()
}

// appendTo appends s to the file name, as an agent writing it would.
func appendTo(name, s string) {
	if f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0); err == nil {
		f.WriteString(s)
		f.Close()
	}
}
