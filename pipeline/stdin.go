package pipeline

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/cleanup"
	"github.com/sesstool/sesstool/registry"
)

// Stdin is the PATH that means standard input, and StdinName how findings
// and messages name it.
const (
	Stdin     = "-"
	StdinName = "<stdin>"
)

// DetectStdin peeks at standard input and finds its single-file layout, for
// commands that read it once as a stream (validate, info, detect).
func DetectStdin(r io.Reader, forced format.Format) (format.Stream, *bufio.Reader, error) {
	f, br, err := detectStdin(r, forced)
	if err != nil {
		return nil, nil, err
	}
	s, ok := f.(format.Stream)
	if !ok {
		return nil, nil, exitcode.Usagef("%s is a directory layout and cannot be read from standard input", f.Name())
	}
	return s, br, nil
}

// detectStdin finds standard input's layout: a single-file one, or a
// directory layout whose session may be one file (format.FileOnStdin),
// which only a spooled copy can be read as.
func detectStdin(r io.Reader, forced format.Format) (format.Format, *bufio.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, err := br.Peek(1 << 16)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, nil, exitcode.IOError(fmt.Errorf("read standard input: %w", err))
	}
	f := forced
	if f == nil {
		f = registry.DetectHead(head)
	}
	if f == nil && len(head) == 1<<16 && format.LineOpen(head, 1) {
		// A header longer than the peek: read on until it ends (up to
		// format.HeadMax, as HeadGrow does for a file) and look again; what
		// was read goes back in front of the rest.
		held, err := format.ReadHead(br, func(h []byte) bool { return format.LineOpen(h, 1) })
		if err != nil {
			return nil, nil, exitcode.IOError(fmt.Errorf("read standard input: %w", err))
		}
		br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(held), br), 1<<16)
		f = registry.DetectHead(held)
	}
	if f == nil {
		return nil, nil, exitcode.Invalidf("standard input: not a session in any known single-file format")
	}
	if _, ok := f.(format.Stream); !ok && !onStdin(f) {
		return nil, nil, exitcode.Usagef("%s is a directory layout and cannot be read from standard input", f.Name())
	}
	return f, br, nil
}

// Spooled is standard input copied to a private temporary file, for the
// commands that read their input more than once (validated, then
// converted; a migration's passes). It is the one spooler.
type Spooled struct {
	Path   string
	Format format.Format
	dir    string
	forget func()
}

// Spool copies standard input to a private temporary file.
func Spool(r io.Reader, forced format.Format) (*Spooled, error) {
	f, br, err := detectStdin(r, forced)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "sesstool-stdin-*")
	if err != nil {
		return nil, exitcode.IOError(fmt.Errorf("spool standard input: %w", err))
	}
	forget := cleanup.Track(dir) // a copy of all of standard input
	name := "stdin"
	if fs, ok := f.(format.FileOnStdin); ok {
		name = fs.StdinFile()
	}
	p := filepath.Join(dir, name)
	fh, err := os.Create(p)
	if err == nil {
		_, err = io.Copy(fh, br)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		forget()
		return nil, exitcode.IOError(fmt.Errorf("spool standard input: %w", err))
	}
	return &Spooled{Path: p, Format: f, dir: dir, forget: forget}, nil
}

// Remove deletes the spooled copy.
func (s *Spooled) Remove() {
	os.RemoveAll(s.dir)
	if s.forget != nil {
		s.forget()
	}
}

// Show names the spooled file as <stdin> in a message or path.
func (s *Spooled) Show(p string) string { return strings.ReplaceAll(p, s.Path, StdinName) }
