package pipeline

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/cleanup"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
)

// Stdin is the PATH that means standard input, and StdinName how findings
// and messages name it.
const (
	Stdin     = "-"
	StdinName = "<stdin>"
)

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
	seen := head // what detection judged
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
		seen = held
	}
	if f == nil {
		f = detectFileOnStdin(seen)
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

// Spool copies standard input to a private temporary file. The copy is
// validated as it is made, and stops at the first error found before the
// end: an endless or huge input that is already invalid is refused (exit
// 1, one line naming the line and what is wrong) instead of filling the
// temporary directory. The refusal is the same whether the error is found
// while copying or at the end (a parent named nowhere): the first error.
func Spool(r io.Reader, forced format.Format) (*Spooled, error) {
	return spool(r, forced, true)
}

// SpoolUnchecked copies standard input whole, without validating it: for
// migrate --skip-invalid, which drops the malformed lines the check would
// refuse.
func SpoolUnchecked(r io.Reader, forced format.Format) (*Spooled, error) {
	return spool(r, forced, false)
}

func spool(r io.Reader, forced format.Format, check bool) (*Spooled, error) {
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
	rep := &report.Report{MaxErrors: 1} // the first error is the one kept
	fh, err := os.Create(p)
	if err == nil {
		// A directory layout's one file (a Claude Code transcript) has no
		// stream validator: it is validated from the copy, as a file is.
		if st, ok := f.(format.Stream); ok && check {
			err = copyValidated(fh, br, st, rep)
		} else {
			_, err = io.Copy(fh, br)
		}
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil && rep.Errors() > 0 {
		err = refuseStdin(rep)
	}
	if err != nil {
		os.RemoveAll(dir)
		forget()
		if exitcode.Of(err) == exitcode.Invalid {
			return nil, err
		}
		return nil, exitcode.IOError(fmt.Errorf("spool standard input: %w", err))
	}
	return &Spooled{Path: p, Format: f, dir: dir, forget: forget}, nil
}

// errStopped ends the validation of a copy stopped at its first error.
var errStopped = errors.New("stopped at the first error")

// copyValidated copies r to f and through s's validator, which reads what
// is copied as it is written (a pipe: the copy is never more than the
// validator's few batches ahead), and stops once rep has an error. A
// validator that returns before the end leaves the copy to go on alone.
func copyValidated(f io.Writer, r io.Reader, s format.Stream, rep *report.Report) error {
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Its read errors are errStopped's; a file it could not finish
		// is validated again from the copy.
		s.ValidateReader(StdinName, pr, rep, format.ValidateOptions{})
		pr.CloseWithError(errStopped) // the copy's writes no longer wait for it
	}()
	buf := make([]byte, 256<<10)
	var err error
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			if _, err = f.Write(buf[:n]); err != nil {
				break
			}
			pw.Write(buf[:n]) // fails only once the validator has returned
			if rep.Errors() > 0 {
				break
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			err = fmt.Errorf("read standard input: %w", rerr)
			break
		}
	}
	if err != nil || rep.Errors() > 0 {
		pw.CloseWithError(errStopped)
	} else {
		pw.Close()
	}
	<-done
	return err
}

// refuseStdin is the one line that refuses standard input at its first
// error.
func refuseStdin(rep *report.Report) error {
	for _, f := range rep.Findings() {
		if f.Severity == report.Error {
			return exitcode.Invalidf("%s; standard input does not validate, read up to its first error, nothing written", f.Text())
		}
	}
	return exitcode.Invalidf("standard input does not validate; nothing written")
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
