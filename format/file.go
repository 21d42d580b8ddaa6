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

// OpenFile is Open for a single-file layout: it opens path and hands it to
// open, which reads the session from r and closes c when the session is
// closed. The file is closed here if open fails.
func OpenFile(path string, open func(name string, r io.Reader, c io.Closer) (session.Reader, error)) (session.Reader, error) {
	fh, err := regfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	r, err := open(path, fh, fh)
	if err != nil {
		fh.Close()
		return nil, err
	}
	return r, nil
}
