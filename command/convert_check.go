package command

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// writeChecked writes one session of a single-file layout to out and
// validates the bytes as the target layout while they are written, instead
// of reading the staged file back afterwards: the same check on the same
// bytes, taking the other core rather than time after the write. Findings
// go into rep; the error is the writer's or an I/O failure.
func writeChecked(sw format.Stream, r session.Reader, out string, opt format.WriteOptions, rep *report.Report) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		r.Close()
		return fmt.Errorf("write %s: %w", out, err)
	}
	af, err := atomicfile.Create(out, 0o644, true)
	if err != nil {
		r.Close()
		return err
	}
	pr, pw := io.Pipe()
	verdict := make(chan error, 1)
	// The findings join rep once the session is written: a session its
	// writer refused has no output to judge.
	own := &report.Report{MaxErrors: rep.MaxErrors}
	go func() {
		defer func() {
			// A panic here would end the process: the command's own
			// recovery only covers the goroutine it runs on.
			if p := recover(); p != nil {
				err := fmt.Errorf("internal error in the validator (please report): %v", p)
				pr.CloseWithError(err)
				verdict <- err
			}
		}()
		err := sw.ValidateReader(out, pr, own, format.ValidateOptions{})
		io.Copy(io.Discard, pr) // a validator that stopped early never holds the writer up
		verdict <- err
	}()
	werr := sw.WriteTo(io.MultiWriter(af, pw), r, opt)
	pw.CloseWithError(werr) // nil: the validator sees the end of the file
	verr := <-verdict
	if werr == nil {
		werr = verr
	}
	if werr != nil {
		af.Abort()
		if refused(werr) {
			return werr // it names the session; the staged name means nothing to the user
		}
		return fmt.Errorf("write %s: %w", out, werr)
	}
	for _, f := range own.Findings() {
		rep.Add(f)
	}
	return af.Commit()
}
