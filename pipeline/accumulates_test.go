package pipeline

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	pitree "github.com/sesstool/sesstool/format/tree"
)

// accumulating is tree's layout declaring that its validator keeps state
// until the file's end.
type accumulating struct{ pitree.Format }

func (accumulating) Traits() format.Traits {
	return format.Traits{AccumulatesWhenValidating: true}
}

// Asked to validate alongside the reading, Gather leaves a single-file
// input to Check, unless its layout declares that its validator
// accumulates (Traits.AccumulatesWhenValidating): that one is validated
// before it is read, so what the validator and the reader keep never add
// up.
func TestAccumulatingValidatedFirst(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	const s = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
`
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		f         format.Format
		alongside bool
		deferred  int
	}{
		{"streams, alongside", pitree.Format{}, true, 1},
		{"accumulates, alongside", accumulating{}, true, 0},
		{"streams, first", pitree.Format{}, false, 0},
		{"accumulates, first", accumulating{}, false, 0},
	} {
		in, err := Gather(p, GatherOptions{Forced: c.f, Alongside: c.alongside, Log: io.Discard})
		if err != nil {
			t.Fatalf("%s: gather: %v", c.name, err)
		}
		if got := len(in.deferred); got != c.deferred {
			t.Errorf("%s: %d inputs left to validate alongside, want %d", c.name, got, c.deferred)
		}
		if err := in.Check(); err != nil {
			t.Errorf("%s: check: %v", c.name, err)
		}
		in.Close()
	}
}
