package html

import (
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"sync"

	"github.com/klauspost/compress/flate"

	"github.com/sesstool/sesstool/session"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/jsonx"
)

// node is one entry in the embedded data. Parent and Label are not in an
// entry's JSON: they are known only once every entry is read, and close the
// data (stream.go); the page's script puts them back on each node.
type node struct {
	ID      string `json:"id"`
	Parent  int    `json:"p"`           // index of the parent, -1 for a root
	Visible bool   `json:"v,omitempty"` // shown as a message of its own
	Role    string `json:"r"`           // role or kind, for filters and the tree
	Snippet string `json:"t"`           // one line for the tree
	Label   string `json:"l,omitempty"`
	HTML    string `json:"h,omitempty"`
}

// appendNodeHead appends n's members before its HTML, leaving the object
// open.
func appendNodeHead(dst []byte, n *node) []byte {
	dst = append(dst, `{"id":`...)
	dst = jsonx.AppendString(dst, n.ID)
	if n.Visible {
		dst = append(dst, `,"v":true`...)
	}
	dst = append(dst, `,"r":`...)
	dst = jsonx.AppendString(dst, n.Role)
	dst = append(dst, `,"t":`...)
	return jsonx.AppendString(dst, n.Snippet)
}

func appendJSONString(dst []byte, s string) []byte { return jsonx.AppendString(dst, s) }

// The payload is one gzip stream of the JSON, base64-encoded. It is made in
// pieces: the opening, chunks of consecutive entries rendered and deflated
// on every core, and the closing. Each piece is deflated on its own and
// ends with a sync flush (an empty stored block, which leaves the stream
// byte-aligned), the last one with the final block, so the pieces joined
// in order are one valid deflate stream (as pigz makes them). A chunk does
// not see its predecessor's last 32 KiB, which costs a little size at each
// boundary. A chunk is chunkEntries entries, or fewer that weigh
// chunkBytes (weightOf: their text), so its boundaries depend only on the
// entries, and the output is deterministic. Chunks of 64 entries deflated
// 15-20% slower than chunks of 256 (the flush and the Huffman tables of
// each block end, docs/performance.md), and their pages were 2% larger;
// the weight keeps a chunk of large entries from holding much.
const (
	chunkEntries = 256
	chunkBytes   = 1 << 20
)

// compression is the deflate level. klauspost/compress's level 1 deflates
// the 128 MB of page data of a 100 MB session 1.8 times as fast as the
// standard library's BestSpeed, to 20.1% of its size against 20.8%; its
// level 2 is hardly slower for 19.4%, level 3 twice as slow (measured on
// one core, docs/performance.md).
const compression = flate.BestSpeed

// gzipHeader has no name, no time and "unknown" OS, so equal input gives
// equal bytes.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// payload writes the spilled pieces as the base64 of one gzip stream.
func payload(w io.Writer, sp *spill) error { return sp.copyTo(w) }

// chunk is one deflated piece of the data: only the compressed bytes are
// kept, with the CRC and length of the JSON they hold.
type chunk struct {
	z   []byte // raw deflate, ending in a sync flush (the last piece: the final block)
	crc uint32
	n   int
	err error // a panic while rendering, reported instead of crashing the process
}

// deflated holds the buffers of chunks already kept (spill.add), for the
// next chunks' deflated bytes: 30 MB of them for a 100 MB session.
var deflated sync.Pool

// recycle hands the buffer of a chunk that has been kept to the next
// chunks. A buffer a huge entry grew is left to the collector.
func recycle(c *chunk) {
	if cap(c.z) <= 1<<20 {
		z := c.z[:0]
		deflated.Put(&z)
	}
	c.z = nil
}

// deflatePiece deflates raw on its own.
func deflatePiece(raw []byte, last bool) *chunk {
	var z buf
	fw, _ := flate.NewWriter(&z, compression) // a valid level cannot fail
	fw.Write(raw)                             // writes to a buf cannot fail
	if last {
		fw.Close()
	} else {
		fw.Flush()
	}
	return &chunk{z: z.b, crc: crc32.ChecksumIEEE(raw), n: len(raw)}
}

// job is a run of consecutive entries to render, from index start, with
// the results of their calls.
type job struct {
	start   int
	entries []*session.Entry
	t       *transcript.Transcript // Results and Paired for these entries
	out     chan *chunk
}

// worker renders and deflates chunks with its own reusable buffers.
type worker struct {
	fw   *flate.Writer
	raw  []byte
	args argMemo
}

// render renders and deflates one job. Each entry's HTML is rendered
// straight into the data as a JSON string (buf's json mode): what
// appendNode makes of buildNode's node, without the HTML's copy.
func (w *worker) render(j job) *chunk {
	raw := w.raw[:0]
	for k, e := range j.entries {
		i := j.start + k
		if i > 0 {
			raw = append(raw, ',')
		}
		w.args.reset()
		n := describeNode(j.t, e, i, &w.args)
		raw = appendNodeHead(raw, &n)
		if n.Visible {
			h := buf{b: append(raw, `,"h":"`...), json: true, args: &w.args}
			entryHTML(&h, j.t, e, i)
			raw = append(h.b, '"')
		}
		raw = append(raw, '}', '\n')
	}
	var z buf
	if p, ok := deflated.Get().(*[]byte); ok && cap(*p) >= len(raw)/4 {
		z.b = (*p)[:0]
	} else {
		z.b = make([]byte, 0, len(raw)/4)
	}
	w.fw.Reset(&z)
	w.fw.Write(raw) // writes to a buf cannot fail
	w.fw.Flush()
	c := &chunk{z: z.b, crc: crc32.ChecksumIEEE(raw), n: len(raw)}
	if cap(raw) > 8<<20 {
		raw = nil // do not keep a buffer a huge entry grew
	}
	w.raw = raw
	return c
}

// workers render jobs on every core; each job's chunk comes back on its
// own channel, so the caller keeps them in order. At most a few jobs per
// core wait, so reading does not run far ahead of rendering.
type workers struct {
	jobs chan job
	done chan struct{}
}

func startWorkers() *workers {
	n := runtime.GOMAXPROCS(0)
	p := &workers{jobs: make(chan job, n), done: make(chan struct{})}
	for range n {
		go func() {
			fw, _ := flate.NewWriter(nil, compression) // a valid level cannot fail
			w := &worker{fw: fw}
			for j := range p.jobs {
				j.out <- w.safeRender(j)
			}
		}()
	}
	return p
}

// safeRender renders a job, turning a panic into the chunk's error: a
// goroutine's panic cannot reach main's guard and would end the process
// with a stack trace.
func (w *worker) safeRender(j job) (c *chunk) {
	defer func() {
		if r := recover(); r != nil {
			c = &chunk{err: fmt.Errorf("render entries from %d: internal error: %v", j.start, r)}
			w.fw, _ = flate.NewWriter(nil, compression) // its state is unknown after a panic
		}
	}()
	return renderHook(w, j)
}

// renderHook is the worker's render; tests replace it to check the guard.
var renderHook = (*worker).render

func (p *workers) submit(j job) chan *chunk {
	j.out = make(chan *chunk, 1) // never blocks a worker
	p.jobs <- j
	return j.out
}

func (p *workers) stop() { close(p.jobs) }
