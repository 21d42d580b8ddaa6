package progress

import (
	"bytes"
	"strings"
	"testing"
)

func TestOnlyOnATerminalAndForMany(t *testing.T) {
	var buf bytes.Buffer
	for _, c := range []struct {
		show  bool
		total int
	}{{false, 5}, {true, 1}, {true, 0}} {
		p := New(&buf, c.total, "x", c.show)
		if p != nil {
			t.Errorf("show=%v total=%d: got a bar", c.show, c.total)
		}
		p.Describe("a") // a nil bar is safe to use
		p.Add()
		p.Clear()
		p.Done()
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %q with no bar", buf.String())
	}
	p := New(&buf, 3, "migrate", true)
	p.Describe("s.jsonl")
	p.Add()
	p.Done()
	if !strings.Contains(buf.String(), "s.jsonl") || !strings.Contains(buf.String(), "/3)") {
		t.Errorf("bar output %q lacks the item name or count", buf.String())
	}
}
