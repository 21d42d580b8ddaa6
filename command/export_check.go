package command

import (
	"fmt"

	"github.com/sesstool/sesstool/pipeline"
)

// check validates an export's input (Input.Check). A single page is
// rendered while its session is validated, on another goroutine, as
// migrate and convert do: the file is read by both at once instead of one
// after the other, and the page is written only once the input validates
// (the page's data is complete only at the end of the session, so nothing
// reaches the output before). Otherwise (a site, Markdown) the input is
// validated first.
type check struct {
	alongside bool
	done      chan struct{}
	err       error
}

// startCheck starts validating in; alongside says whether to return at
// once (the export then waits for the result before writing anything).
func startCheck(in *pipeline.Input, alongside bool) *check {
	c := &check{alongside: alongside, done: make(chan struct{})}
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

// wait returns the validation's outcome, once it is known.
func (c *check) wait() error {
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

// checkFailed carries the validation's refusal through the page's reader.
type checkFailed struct{ err error }

func (e checkFailed) Error() string { return e.err.Error() }
func (e checkFailed) Unwrap() error { return e.err }
