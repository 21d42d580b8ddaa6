// Package benchdata builds large, realistic benchmark inputs deterministically
// by replicating real sample lines with fresh ids. bench/gen writes them to
// files for bench/run.sh; the go test benchmarks build them in memory.
package benchdata

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/tidwall/gjson"
)

var keptIndex = regexp.MustCompile(`"firstKeptEntryIndex":(\d+)`)

// Tree replicates the sample's entries (every line after its header) into w
// until size bytes are written, stopping at a line boundary. v3 output gets
// ids 8 hex wide chained in order; v1 output keeps the sample's id-less
// lines, shifting compaction indexes by each replica's offset.
func Tree(w io.Writer, sample []byte, size int64, v3 bool) error {
	lines := entries(sample)
	if len(lines) == 0 {
		return fmt.Errorf("sample has no entries")
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	header := `{"type":"session","id":"bench-session","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/bench"}`
	if v3 {
		header = `{"type":"session","version":3,"id":"bench-session","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/bench"}`
	}
	written := int64(len(header) + 1)
	fmt.Fprintln(bw, header)
	n, prev := 0, ""
	for replica := 0; written < size; replica++ {
		for _, l := range lines {
			var b []byte
			if v3 {
				id := fmt.Sprintf("%08x", n+1)
				b = v3Line(l, id, prev, replica*len(lines))
				prev = id
			} else {
				b = shiftIndex(l, replica*len(lines))
			}
			n++
			bw.Write(b)
			bw.WriteByte('\n')
			written += int64(len(b) + 1)
			if written >= size {
				break
			}
		}
	}
	return bw.Flush()
}

func entries(b []byte) [][]byte {
	var out [][]byte
	for i, l := range bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n")) {
		if i > 0 && len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// v3Line puts type, id and parentId first and keeps the rest of the line. A
// v1 compaction's index (header = 0) becomes the id of the same entry in this
// replica: ids are 1-based entry counters and base counts earlier replicas.
func v3Line(l []byte, id, parent string, base int) []byte {
	typ := gjson.GetBytes(l, "type")
	body := keptIndex.ReplaceAllFunc(l, func(m []byte) []byte {
		idx, _ := strconv.Atoi(string(keptIndex.FindSubmatch(m)[1]))
		return []byte(fmt.Sprintf(`"firstKeptEntryId":"%08x"`, base+idx))
	})
	var o jsonx.Obj
	o.Str("type", typ.String()).Str("id", id)
	if parent == "" {
		o.Null("parentId")
	} else {
		o.Str("parentId", parent)
	}
	head := o.Bytes()
	rest := bytes.TrimPrefix(body, []byte(`{"type":`+typ.Raw))
	return append(head[:len(head)-1], rest...)
}

func shiftIndex(l []byte, offset int) []byte {
	return keptIndex.ReplaceAllFunc(l, func(m []byte) []byte {
		idx, _ := strconv.Atoi(string(keptIndex.FindSubmatch(m)[1]))
		return []byte(fmt.Sprintf(`"firstKeptEntryIndex":%d`, idx+offset))
	})
}

// Sample is the pi sample the benchmarks replicate, under the shared
// folder's samples/: a real 2.3 MB v1 session with tool calls, tool
// results, thinking and a compaction (bench/run.sh uses the same file).
const Sample = "pi/pi-mono_before-compaction.v1.jsonl"

// SamplePath is Sample's path, or skips tb without the shared folder (fails
// it under SESSTOOL_REQUIRE_PEERS=1).
func SamplePath(tb testing.TB) string {
	tb.Helper()
	return shared.Sample(tb, Sample)
}

// TreeBytes builds a tree JSONL file of about size bytes in memory from the
// shared pi sample, for benchmarks and tests.
func TreeBytes(tb testing.TB, size int64, v3 bool) []byte {
	tb.Helper()
	sample, err := os.ReadFile(SamplePath(tb))
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Tree(&buf, sample, size, v3); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// root is the repository root, found from this source file.
func root(tb testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("benchdata: no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Root returns the repository root.
func Root(tb testing.TB) string { return root(tb) }
