package walcopy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// SQLite reads a write-ahead log only up to its last valid commit frame
// (https://sqlite.org/fileformat2.html#walformat): a header whose magic,
// page size and checksum hold, then frames whose salts are the header's
// and whose checksums, chained from the header's, hold, the last of them
// a commit (its database size not 0). Whatever follows, or a log whose
// header does not hold, it ignores. So that is all the private copy needs:
// a sparse 1.5 GB log of zeros used to be copied whole into the temporary
// directory; now nothing of it is.

const (
	walHeaderSize = 32
	frameHeader   = 24
	walMagic      = 0x377f0682 // the low bit says the checksums are big-endian
)

// copyWAL copies to w what of the log at path SQLite would use, and
// returns its length: 0 when none (no commit, or a header that does not
// hold). The log is read once, as it is copied, so that a log its program
// rewrites meanwhile is still copied consistently up to where it stops
// holding; w gets each frame that holds, and is then cut to the last
// commit.
func copyWAL(path string, w io.Writer) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return validPrefix(bufio.NewReaderSize(f, 64<<10), w)
}

// validPrefix reads a log from r, writes to w its header and each frame
// that holds, and returns the length up to the last commit.
func validPrefix(r io.Reader, w io.Writer) (int64, error) {
	var hdr [walHeaderSize]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, noEnd(err)
	}
	be := binary.BigEndian
	magic := be.Uint32(hdr[0:])
	pageSize := be.Uint32(hdr[8:])
	if magic&^1 != walMagic || pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		return 0, nil
	}
	var order binary.ByteOrder = binary.LittleEndian
	if magic&1 == 1 {
		order = binary.BigEndian
	}
	s0, s1 := checksum(order, 0, 0, hdr[:24])
	if s0 != be.Uint32(hdr[24:]) || s1 != be.Uint32(hdr[28:]) {
		return 0, nil
	}
	if _, err := w.Write(hdr[:]); err != nil {
		return 0, err
	}
	salt1, salt2 := be.Uint32(hdr[16:]), be.Uint32(hdr[20:])
	frame := make([]byte, frameHeader+int(pageSize))
	valid, at := int64(0), int64(walHeaderSize)
	for {
		if _, err := io.ReadFull(r, frame); err != nil {
			return valid, noEnd(err)
		}
		if be.Uint32(frame[0:]) == 0 || be.Uint32(frame[8:]) != salt1 || be.Uint32(frame[12:]) != salt2 {
			return valid, nil
		}
		s0, s1 = checksum(order, s0, s1, frame[:8])
		s0, s1 = checksum(order, s0, s1, frame[frameHeader:])
		if s0 != be.Uint32(frame[16:]) || s1 != be.Uint32(frame[20:]) {
			return valid, nil
		}
		if _, err := w.Write(frame); err != nil {
			return 0, err
		}
		at += int64(len(frame))
		if be.Uint32(frame[4:]) != 0 { // a commit: the database's size in pages
			valid = at
		}
	}
}

// noEnd is nil for the end of the file, where the valid frames end too.
func noEnd(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil
	}
	return fmt.Errorf("read the write-ahead log: %w", err)
}

// checksum is SQLite's log checksum over b (a multiple of 8 bytes), its
// 32-bit words read in order, continuing from s0 and s1.
func checksum(order binary.ByteOrder, s0, s1 uint32, b []byte) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}
