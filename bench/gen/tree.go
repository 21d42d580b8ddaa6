package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/tidwall/gjson"
)

var keptIndex = regexp.MustCompile(`"firstKeptEntryIndex":(\d+)`)

// genTree replicates the sample's entries until the file reaches size. v3
// output gets ids 8 hex wide chained in order; v1 output keeps the sample's
// id-less lines, shifting compaction indexes by each replica's offset.
func genTree(sample, out string, size int64, v3 bool) error {
	lines, err := sampleEntries(sample)
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	header := `{"type":"session","id":"bench-session","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/bench"}`
	if v3 {
		header = `{"type":"session","version":3,"id":"bench-session","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/bench"}`
	}
	written := int64(len(header) + 1)
	fmt.Fprintln(w, header)
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
			w.Write(b)
			w.WriteByte('\n')
			written += int64(len(b) + 1)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func sampleEntries(path string) ([][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for i, l := range bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n")) {
		if i > 0 && len(l) > 0 {
			out = append(out, l)
		}
	}
	return out, nil
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
