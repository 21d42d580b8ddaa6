package report

import (
	"bufio"
	"cmp"
	"compress/flate"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// Findings are printed sorted, and the last ones of a file can be about its
// first lines (a parent named nowhere is only known at the end), so they
// cannot simply be printed as they come. A file can have millions of
// findings (a line of `{}` repeated is two each) at a few hundred bytes of
// heap each: past Report.Spill bytes the kept findings are sorted and
// written, compressed, as one run to a temporary file, and printing merges
// the runs. Findings repeat their path, rule and message, so a run costs a
// few bytes a finding on disk.

// maxRuns bounds the runs merged at once (each holds a decompressor of
// about 40 KiB): at this many, they are merged into one.
const maxRuns = 64

// findingOverhead is a kept finding's heap besides its strings' bytes: the
// struct, its strings' headers, its share of the slice.
const findingOverhead = 160

func weight(f Finding) int {
	return findingOverhead + len(f.Path) + len(f.Pointer) + len(f.Rule) + len(f.Message)
}

func less(a, b Finding) int {
	return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
}

// spool is the temporary file of sorted runs.
type spool struct {
	f    *os.File
	runs []run
	end  int64
}

type run struct{ off, size int64 }

// spill writes the findings, sorted already, as one run; with maxRuns runs
// on disk they are first merged into one, in a new file.
func (r *Report) spill(sorted []Finding) error {
	if r.spool == nil {
		f, err := os.CreateTemp("", "sesstool-findings-*")
		if err != nil {
			return fmt.Errorf("spill findings to a temporary file: %w", err)
		}
		os.Remove(f.Name()) // nothing else opens it; it goes when closed
		r.spool = &spool{f: f}
	}
	if len(r.spool.runs) >= maxRuns {
		if err := r.compact(); err != nil {
			return err
		}
	}
	s := r.spool
	return s.write(func(yield func(Finding) error) error {
		for _, f := range sorted {
			if err := yield(f); err != nil {
				return err
			}
		}
		return nil
	})
}

// compact merges every run into one in a new temporary file.
func (r *Report) compact() error {
	old := r.spool
	f, err := os.CreateTemp("", "sesstool-findings-*")
	if err != nil {
		return fmt.Errorf("spill findings to a temporary file: %w", err)
	}
	os.Remove(f.Name())
	s := &spool{f: f}
	err = s.write(func(yield func(Finding) error) error { return old.merge(nil, yield) })
	old.f.Close()
	if err != nil {
		f.Close()
		r.spool = nil
		return err
	}
	r.spool = s
	return nil
}

// write appends one run made of what each yields, in order.
func (s *spool) write(each func(yield func(Finding) error) error) error {
	w := &counter{w: io.NewOffsetWriter(s.f, s.end)}
	bw := bufio.NewWriterSize(w, 64<<10)
	zw, _ := flate.NewWriter(bw, flate.BestSpeed) // the level is valid
	var buf []byte
	err := each(func(f Finding) error {
		buf = encode(buf[:0], f)
		_, err := zw.Write(buf)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("spill findings to a temporary file: %w", err)
	}
	s.runs = append(s.runs, run{off: s.end, size: w.n})
	s.end += w.n
	return nil
}

type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// merge yields the runs' findings and mem's (sorted) in order. Equal keys
// keep the order they were added in: earlier runs first, mem last.
func (s *spool) merge(mem []Finding, yield func(Finding) error) error {
	h := &mergeHeap{}
	if s != nil {
		for i, rn := range s.runs {
			src := &runReader{r: bufio.NewReaderSize(flate.NewReader(io.NewSectionReader(s.f, rn.off, rn.size)), 16<<10), order: i}
			if err := src.next(); err != nil {
				return err
			}
			if src.ok {
				h.items = append(h.items, src)
			}
		}
	}
	if len(mem) > 0 {
		h.items = append(h.items, &runReader{mem: mem[1:], cur: mem[0], ok: true, order: len(h.items) + 1<<30})
	}
	heap.Init(h)
	for h.Len() > 0 {
		top := h.items[0]
		if err := yield(top.cur); err != nil {
			return err
		}
		if err := top.next(); err != nil {
			return err
		}
		if top.ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return nil
}

// runReader yields one run's findings, from the file or from memory.
type runReader struct {
	r     *bufio.Reader
	mem   []Finding
	cur   Finding
	ok    bool
	order int
}

func (rr *runReader) next() error {
	if rr.r == nil {
		rr.ok = len(rr.mem) > 0
		if rr.ok {
			rr.cur, rr.mem = rr.mem[0], rr.mem[1:]
		}
		return nil
	}
	f, err := decode(rr.r)
	if errors.Is(err, io.EOF) {
		rr.ok = false
		return nil
	}
	if err != nil {
		return fmt.Errorf("read back spilled findings: %w", err)
	}
	rr.cur, rr.ok = f, true
	return nil
}

type mergeHeap struct{ items []*runReader }

func (h *mergeHeap) Len() int { return len(h.items) }
func (h *mergeHeap) Less(i, j int) bool {
	c := less(h.items[i].cur, h.items[j].cur)
	return c < 0 || c == 0 && h.items[i].order < h.items[j].order
}
func (h *mergeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *mergeHeap) Push(x any)    { h.items = append(h.items, x.(*runReader)) }
func (h *mergeHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// encode appends f: line and column as uvarints, then each string as its
// length (uvarint) and bytes.
func encode(b []byte, f Finding) []byte {
	b = binary.AppendUvarint(b, uint64(f.Line))
	b = binary.AppendUvarint(b, uint64(f.Column))
	for _, s := range [...]string{f.Path, f.Pointer, string(f.Severity), f.Rule, f.Message} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func decode(r *bufio.Reader) (Finding, error) {
	var f Finding
	line, err := binary.ReadUvarint(r)
	if err != nil {
		return f, err // io.EOF here is the run's end
	}
	col, err := binary.ReadUvarint(r)
	if err != nil {
		return f, noEOF(err)
	}
	var s [5]string
	for i := range s {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return f, noEOF(err)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return f, noEOF(err)
		}
		s[i] = string(b)
	}
	return Finding{Line: int(line), Column: int(col), Path: s[0], Pointer: s[1], Severity: Severity(s[2]), Rule: s[3], Message: s[4]}, nil
}

func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// sortFindings sorts by path, line and column, keeping the order of equals.
func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, less)
}
