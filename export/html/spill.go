package html

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// spill keeps the page's data until the header, which needs the whole
// session, has been written before it: in memory up to spillMemory bytes,
// then in a temporary file, so a large session's page does not stay on
// the heap. What it keeps is already the base64 text of the gzip stream,
// encoded as each deflated piece arrives (while the other pieces are
// rendered), so writing the page at the end is a copy: the 30 MB of a 100
// MB session's data were encoded there, on one core, after everything
// else.
type spill struct {
	mem   []byte
	f     *os.File
	carry []byte // the last 0-2 bytes of the stream, not yet a whole base64 quantum
	enc   []byte // reused for each piece's base64
	crc   uint32 // of the JSON the pieces hold, for the gzip trailer
	size  uint32 // its length modulo 2^32, as gzip keeps it
}

const spillMemory = 1 << 20

// newSpill starts the gzip stream with its header.
func newSpill() (*spill, error) {
	s := &spill{}
	return s, s.encode(gzipHeader)
}

// add appends a piece.
func (s *spill) add(c *chunk) error {
	s.crc = crcCombine(s.crc, c.crc, int64(c.n))
	s.size += uint32(c.n)
	return s.encode(c.z)
}

// encode appends the base64 of the whole quanta of the carried bytes and
// z, carrying what is left over (base64 of the pieces in turn is base64 of
// the stream only in steps of three bytes).
func (s *spill) encode(z []byte) error {
	if len(s.carry) > 0 {
		take := min(3-len(s.carry), len(z))
		s.carry = append(s.carry, z[:take]...)
		z = z[take:]
		if len(s.carry) < 3 {
			return nil
		}
		if err := s.keep(s.carry); err != nil {
			return err
		}
		s.carry = s.carry[:0]
	}
	whole := len(z) / 3 * 3
	s.carry = append(s.carry, z[whole:]...)
	return s.keep(z[:whole])
}

// keep keeps the base64 of p, whose length is a multiple of three.
func (s *spill) keep(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	s.enc = base64.StdEncoding.AppendEncode(s.enc[:0], p)
	if s.f == nil && len(s.mem)+len(s.enc) <= spillMemory {
		s.mem = append(s.mem, s.enc...)
		return nil
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "sesstool-page-*")
		if err != nil {
			return fmt.Errorf("keep the page's data: %w", err)
		}
		os.Remove(f.Name()) // unnamed from now on: nothing is left behind, whatever happens
		s.f = f
		if _, err := f.Write(s.mem); err != nil {
			return fmt.Errorf("keep the page's data: %w", err)
		}
		s.mem = nil
	}
	if _, err := s.f.Write(s.enc); err != nil {
		return fmt.Errorf("keep the page's data: %w", err)
	}
	if cap(s.enc) > 4<<20 {
		s.enc = nil // do not keep what a huge piece grew
	}
	return nil
}

// copyTo writes the base64 of the whole stream, its gzip trailer last, to
// w. A file written through a bufio.Writer gets the kept text by
// copy_file_range, in the kernel (os.File's ReadFrom).
func (s *spill) copyTo(w io.Writer) error {
	if s.f == nil {
		if _, err := w.Write(s.mem); err != nil {
			return err
		}
	} else {
		if _, err := s.f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("read back the page's data: %w", err)
		}
		if _, err := io.Copy(w, s.f); err != nil {
			return err
		}
	}
	end := binary.LittleEndian.AppendUint32(s.carry, s.crc)
	end = binary.LittleEndian.AppendUint32(end, s.size)
	_, err := w.Write(base64.StdEncoding.AppendEncode(nil, end))
	return err
}

func (s *spill) close() {
	if s.f != nil {
		s.f.Close()
	}
}
