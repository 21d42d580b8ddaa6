package html

import (
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"io"
	"runtime"
	"strconv"
	"sync"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/jsonx"
)

// node is one entry in the embedded data.
type node struct {
	ID      string `json:"id"`
	Parent  int    `json:"p"`           // index of the parent, -1 for a root
	Visible bool   `json:"v,omitempty"` // shown as a message of its own
	Role    string `json:"r"`           // role or kind, for filters and the tree
	Snippet string `json:"t"`           // one line for the tree
	Label   string `json:"l,omitempty"`
	HTML    string `json:"h,omitempty"`
}

// appendNode appends n, with html as its HTML, as encoding/json would
// marshal it (same members, same order, same omissions) without its
// reflection: the payload is over a hundred megabytes of escaped HTML for a
// large session.
func appendNode(dst []byte, n *node, html []byte) []byte {
	dst = append(dst, `{"id":`...)
	dst = jsonx.AppendString(dst, n.ID)
	dst = append(dst, `,"p":`...)
	dst = strconv.AppendInt(dst, int64(n.Parent), 10)
	if n.Visible {
		dst = append(dst, `,"v":true`...)
	}
	dst = append(dst, `,"r":`...)
	dst = jsonx.AppendString(dst, n.Role)
	dst = append(dst, `,"t":`...)
	dst = jsonx.AppendString(dst, n.Snippet)
	if n.Label != "" {
		dst = append(dst, `,"l":`...)
		dst = jsonx.AppendString(dst, n.Label)
	}
	if len(html) > 0 {
		dst = append(dst, `,"h":`...)
		dst = jsonx.AppendString(dst, html)
	}
	return append(dst, '}', '\n')
}

// The payload is one gzip stream of the JSON {"leaf":N,"nodes":[...]},
// base64-encoded. It is made in chunks of chunkEntries consecutive entries,
// rendered and deflated on every core: each chunk is deflated on its own
// and ends with a sync flush (an empty stored block, which leaves the
// stream byte-aligned), the last one with the final block, so the chunks
// joined in order are one valid deflate stream (as pigz makes them). A chunk
// does not see its predecessor's last 32 KiB, which costs a little size at
// each boundary. Chunk boundaries depend only on entry counts, so the output
// is deterministic; a session of one chunk gives what a plain gzip writer
// would.
const chunkEntries = 64

// compression is the deflate level. BestSpeed's single-pass matcher
// deflates 176 MB of page data (a 100 MB session) in 1.3 CPU seconds to 19%
// of its size; level 2 takes 1.6 s for 17%, the default level 3.8 s for 14%.
// A session that is one chunk of under smallSession bytes gets the default
// level: there the time is nothing and the size is what is seen.
const (
	compression      = flate.BestSpeed
	smallCompression = flate.DefaultCompression
	smallSession     = 64 << 10
)

// gzipHeader has no name, no time and "unknown" OS, so equal input gives
// equal bytes.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

func payload(w io.Writer, t *transcript.Transcript) error {
	b64 := base64.NewEncoder(base64.StdEncoding, w)
	if _, err := b64.Write(gzipHeader); err != nil {
		return err
	}
	// the page walks parents up from the leaf: the conversation tree's
	// parents, so it shows the active path info counts and convert keeps
	head := `{"leaf":` + strconv.Itoa(t.LeafAt) + `,"nodes":[` + "\n"
	crc, size := uint32(0), uint32(0)
	stop := make(chan struct{})
	defer close(stop) // after an error, no more chunks are started
	for ch := range renderChunks(t, head, stop) {
		c := <-ch
		crc = crc32.Update(crc, crc32.IEEETable, c.raw)
		size += uint32(len(c.raw)) // gzip keeps the size modulo 2^32
		_, err := b64.Write(c.z)
		chunks.Put(c)
		if err != nil {
			return err
		}
	}
	trailer := binary.LittleEndian.AppendUint32(nil, crc)
	trailer = binary.LittleEndian.AppendUint32(trailer, size)
	if _, err := b64.Write(trailer); err != nil {
		return err
	}
	return b64.Close()
}

// chunk is one rendered and deflated run of entries.
type chunk struct {
	raw []byte // the JSON text, for the gzip CRC
	z   []byte // raw deflate, ending in a sync flush
}

// chunks are reused once written: they are most of what an export allocates.
var chunks = sync.Pool{New: func() any { return new(chunk) }}

// worker renders and deflates chunks with its own reusable buffers.
type worker struct {
	fw *flate.Writer
	z  buf // the chunk's deflated bytes
	h  buf // one entry's HTML
}

// render renders and deflates entries [start, end); the first chunk starts
// with head, the last ends the JSON and the deflate stream.
func (w *worker) render(t *transcript.Transcript, head string, start, end int) *chunk {
	c := chunks.Get().(*chunk)
	raw := c.raw[:0]
	if start == 0 {
		raw = append(raw, head...)
	}
	last := end == len(t.S.Entries)
	for i := start; i < end; i++ {
		w.h.b = w.h.b[:0]
		n := buildNode(t, t.S.Entries[i], i, &w.h)
		if i > 0 {
			raw = append(raw, ',')
		}
		raw = appendNode(raw, &n, w.h.b)
	}
	if last {
		raw = append(raw, "]}"...)
	}
	fw := w.fw
	if start == 0 && last && len(raw) < smallSession {
		fw, _ = flate.NewWriter(nil, smallCompression) // a valid level cannot fail
	}
	w.z.b = c.z[:0]
	fw.Reset(&w.z)
	fw.Write(raw) // writes to a buf cannot fail
	if last {
		fw.Close()
	} else {
		fw.Flush()
	}
	c.raw, c.z = raw, w.z.b
	w.z.b = nil // the chunk owns it now
	return c
}

// renderChunks renders and deflates the entries in chunks on every core and
// hands the results out in entry order: one channel per chunk, queued in
// order, at most a few chunks per core ahead of the writer.
func renderChunks(t *transcript.Transcript, head string, stop <-chan struct{}) <-chan chan *chunk {
	n := runtime.GOMAXPROCS(0)
	type job struct {
		start, end int
		out        chan *chunk
	}
	jobs := make(chan job)
	for range n {
		go func() {
			fw, _ := flate.NewWriter(nil, compression) // a valid level cannot fail
			w := &worker{fw: fw}
			for j := range jobs {
				j.out <- w.render(t, head, j.start, j.end)
			}
		}()
	}
	queue := make(chan chan *chunk, n*2)
	go func() {
		defer close(queue)
		defer close(jobs)
		// an empty session is one empty chunk: the JSON and the stream still end
		for start := 0; start == 0 || start < len(t.S.Entries); start += chunkEntries {
			ch := make(chan *chunk, 1) // never blocks a worker
			select {
			case queue <- ch:
			case <-stop:
				return
			}
			jobs <- job{start, min(start+chunkEntries, len(t.S.Entries)), ch}
		}
	}()
	return queue
}
