package flat

import (
	"bytes"
	"io"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/tree"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// BenchmarkWriteFromTree is convert's tree -> flat writing on 16 MB of tree
// v3 replicated from a real pi session, without the validators that run
// alongside it: the index pass, then reading, adapting and encoding every
// entry. b.SetBytes makes it report MB/s of input.
func BenchmarkWriteFromTree(b *testing.B) {
	in := benchdata.TreeBytes(b, 16<<20, true)
	open := func() (session.Reader, error) { return tree.Format{}.OpenReader("bench", bytes.NewReader(in)) }
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := open()
		if err != nil {
			b.Fatal(err)
		}
		if err := convert.WriteTo(&Format{}, io.Discard, r, format.WriteOptions{Reopen: open}, &loss.Counter{}); err != nil {
			b.Fatal(err)
		}
	}
}
