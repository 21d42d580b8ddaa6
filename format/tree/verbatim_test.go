package tree

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
)

// With every line past the limit, the copy streams each line in pieces and
// must still give the input back byte for byte, leave blank lines out and
// refuse a line that is not an object.
func TestVerbatimCopiesLongLines(t *testing.T) {
	defer func(n int) { longLine = n }(longLine)
	longLine = 1
	copyOf := func(in []byte) ([]byte, error) {
		r, err := Format{}.OpenReader("x", bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := verbatim(r); !ok {
			t.Fatal("a fresh reader is not copied verbatim")
		}
		var out bytes.Buffer
		err = (Format{}).WriteTo(&out, r, format.WriteOptions{})
		return out.Bytes(), err
	}
	for name, in := range roundTripInputs(t) {
		got, err := copyOf(in)
		if err != nil || !bytes.Equal(got, in) {
			t.Errorf("%s: copy differs from the input (%d vs %d bytes), err %v", name, len(got), len(in), err)
		}
	}
	header := `{"type":"session","version":3,"id":"s","timestamp":"2026-11-20T09:00:28.000Z","cwd":"/"}` + "\n"
	entry := ` {"type":"label","id":"a","parentId":null,"timestamp":"2026-11-20T09:00:28.000Z","targetId":"a"}`
	got, err := copyOf([]byte(header + "   \n" + entry + "\r\n"))
	if err != nil || string(got) != header+entry+"\n" {
		t.Errorf("blank line and CRLF: %q, err %v", got, err)
	}
	if _, err := copyOf([]byte(header + "  [1]\n")); err == nil || !strings.Contains(err.Error(), "x:2: entry is not a JSON object") {
		t.Errorf("a line that is not an object: err %v", err)
	}
}
