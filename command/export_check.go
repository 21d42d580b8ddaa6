package command

import (
	"fmt"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/session"
)

// check validates an export's input (Input.Check). A single page is
// rendered while its session is validated, on another goroutine, as
// migrate and convert do: the file is read by both at once instead of one
// after the other (or once, for both: feed), and the page is written only
// once the input validates
// (the page's data is complete only at the end of the session, so nothing
// reaches the output before). Otherwise (a site, Markdown) the input is
// validated first.
type check struct {
	alongside bool
	done      chan struct{}
	err       error
	// feed, when set, has the validation hand the lines it reads to the
	// page's reader (pipeline.Input.Tee), so the file is read once
	feed *jsonl.Feed
}

// startCheck starts validating in; alongside says whether to return at
// once (the export then waits for the result before writing anything).
// The one session of an export validated alongside is read from what its
// validation reads, when its layout can hand it over (format.Teed).
func startCheck(in *pipeline.Input, alongside bool) *check {
	c := &check{alongside: alongside, done: make(chan struct{})}
	if alongside && len(in.Jobs) == 1 {
		c.feed = in.Tee(in.Jobs[0])
	}
	run := func() {
		defer close(c.done)
		defer func() {
			if p := recover(); p != nil {
				c.err = IO(fmt.Errorf("internal error in the validator (please report): %v", p))
			}
		}()
		c.err = in.Check()
	}
	if alongside {
		go run()
	} else {
		run()
	}
	return c
}

// wait returns the validation's outcome, once it is known. The page's
// reader reads nothing more once it waits: the validation need not wait
// for it to take lines.
func (c *check) wait() error {
	if c.feed != nil {
		c.feed.Stop()
	}
	<-c.done
	return c.err
}

// first returns the validation's findings rather than err when the input
// does not validate: they come first, as if it had been validated before.
func (c *check) first(err error) error {
	if cerr := c.wait(); cerr != nil {
		return cerr
	}
	return err
}

// open opens j, from the validation's lines when they are handed over.
func (c *check) open(j pipeline.Job) (session.Reader, error) {
	if t, ok := j.Format.(format.Teed); ok && c.feed != nil {
		return t.OpenTeed(j.Ref, c.feed)
	}
	return j.Format.Open(j.Ref)
}

// checkFailed carries the validation's refusal through the page's reader.
type checkFailed struct{ err error }

func (e checkFailed) Error() string { return e.err.Error() }
func (e checkFailed) Unwrap() error { return e.err }
