package tree

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

var _ format.Copier = Format{}

// Verbatim reports whether WriteTo copies r's lines (see verbatim).
func (Format) Verbatim(r session.Reader) bool { _, ok := verbatim(r); return ok }

// verbatim reports whether WriteTo may copy r's lines instead of decoding,
// encoding and merging each: r is this layout's own reader, straight from
// the file (nothing between it and the writer can have changed an entry),
// written in the version it was read in. Every line then merges back to
// its own bytes, which the round-trip tests check line by line against the
// model's encoding, so copying is the same output without the model's cost.
func verbatim(r session.Reader) (*reader, bool) {
	rd, ok := r.(*reader)
	if !ok || rd.ahead != nil || rd.Fed != nil || rd.n != 0 || !known(rd.meta.Version) {
		return nil, false
	}
	return rd, true
}

// copyLines writes the header and every remaining non-blank line of rd,
// each ended by one newline, as the model path does. A line that is not an
// object is the same error the model path gives; anything else that
// validation rejects is refused by the validation every writer's input
// and output goes through.
func (rd *reader) copyLines(bw *bufio.Writer) error {
	if n, ok := rd.meta.Private.(*metaNote); ok && n.TitleSlot != nil {
		bw.Write(n.TitleSlot)
		bw.WriteByte('\n')
	}
	bw.Write(rd.meta.Raw)
	bw.WriteByte('\n')
	for {
		l, err := rd.Reader.NextLimit(longLine)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", rd.Name, err)
		}
		if l.Long {
			if err := rd.copyLong(bw, l.N); err != nil {
				return err
			}
			continue
		}
		if len(bytes.TrimSpace(l.Bytes)) == 0 {
			continue // as line() does
		}
		if !isObject(l.Bytes) {
			return fmt.Errorf("%s:%d: entry is not a JSON object", rd.Name, l.N)
		}
		rd.n++
		bw.Write(l.Bytes)
		if err := bw.WriteByte('\n'); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// longLine is the length past which a line is copied in pieces, never
// held whole (validate checks such a line as a stream too).
var longLine = 64 << 20 // a variable for the tests

// copyLong copies the long line NextLimit just returned in pieces. Only
// white space before its first other byte is held, to leave a blank line
// out and refuse one that is not an object, as copyLines does.
func (rd *reader) copyLong(bw *bufio.Writer, n int) error {
	var lead []byte
	started, bad := false, false
	_, err := rd.Reader.Rest(func(p []byte) {
		if !started {
			c := firstByte(p)
			if c == 0 {
				lead = append(lead, p...)
				return
			}
			started, bad = true, c != '{'
			bw.Write(lead)
			lead = nil
		}
		if !bad {
			bw.Write(p)
		}
	})
	switch {
	case err != nil:
		return fmt.Errorf("read %s: %w", rd.Name, err)
	case !started:
		return nil // blank
	case bad:
		return fmt.Errorf("%s:%d: entry is not a JSON object", rd.Name, n)
	}
	rd.n++
	if err := bw.WriteByte('\n'); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}
