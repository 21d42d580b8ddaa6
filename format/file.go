package format

import (
	"fmt"
	"io"
	"os"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/session"
)

// WriteFile is Write for a single-file layout: it writes one session with
// writeTo into the file out, atomically (the file appears only complete,
// and an existing one is replaced only with opt.Force), and returns out.
// The layouts share it so that every file output has the same guarantee.
func WriteFile(name, out string, r session.Reader, opt WriteOptions, writeTo func(io.Writer, session.Reader, WriteOptions) error) ([]string, error) {
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		r.Close()
		return nil, fmt.Errorf("write %s: is a directory (%s writes one file per session)", out, name)
	}
	af, err := atomicfile.Create(out, 0o644, opt.Force)
	if err != nil {
		r.Close()
		return nil, err
	}
	if err := writeTo(af, r, opt); err != nil {
		af.Abort()
		return nil, fmt.Errorf("write %s: %w", out, err)
	}
	if err := af.Commit(); err != nil {
		return nil, err // it names out
	}
	return []string{out}, nil
}

// OpenFile is Open for a single-file layout: it opens ref's file
// (OpenPrefix) and hands it to open, which reads the session from r and
// closes c when the session is closed. The file is closed here if open
// fails.
func OpenFile(ref Ref, open func(name string, r io.Reader, c io.Closer) (session.Reader, error)) (session.Reader, error) {
	r, c, err := OpenPrefix(ref.Path, ref.Size)
	if err != nil {
		return nil, err
	}
	s, err := open(ref.Path, r, c)
	if err != nil {
		c.Close()
		return nil, err
	}
	return s, nil
}

// OpenPrefix opens the regular file at path to read its first size bytes,
// or all of it when size is 0. A session file may be growing while it is
// read (its agent still running): a run validates it and then, or at the
// same time, reads it again, and both must stop where the file ended when
// the run found it, or the reader would take lines, a half-written one
// among them, that the validation never saw.
func OpenPrefix(path string, size int64) (io.Reader, io.Closer, error) {
	fh, err := regfile.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	if size > 0 {
		return io.NewSectionReader(fh, 0, size), fh, nil
	}
	return fh, fh, nil
}
