package html

import (
	"fmt"
	"io"
	"os"
)

// spill keeps the page's compressed data until the header, which needs
// the whole session, has been written before it: in memory up to
// spillMemory bytes, then in a temporary file, so a large session's page
// does not stay on the heap.
type spill struct {
	mem  []byte
	f    *os.File
	crc  uint32 // of the JSON the pieces hold, for the gzip trailer
	size uint32 // its length modulo 2^32, as gzip keeps it
}

const spillMemory = 1 << 20

func newSpill() (*spill, error) { return &spill{}, nil }

// add appends a piece.
func (s *spill) add(c *chunk) error {
	s.crc = crcCombine(s.crc, c.crc, int64(c.n))
	s.size += uint32(c.n)
	if s.f == nil && len(s.mem)+len(c.z) <= spillMemory {
		s.mem = append(s.mem, c.z...)
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
	if _, err := s.f.Write(c.z); err != nil {
		return fmt.Errorf("keep the page's data: %w", err)
	}
	return nil
}

// copyTo writes every piece, in order, to w.
func (s *spill) copyTo(w io.Writer) error {
	if s.f == nil {
		_, err := w.Write(s.mem)
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("read back the page's data: %w", err)
	}
	_, err := io.CopyBuffer(w, s.f, make([]byte, 1<<16))
	return err
}

func (s *spill) close() {
	if s.f != nil {
		s.f.Close()
	}
}
