package pipeline

import (
	"fmt"
	"os"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/exitcode"
)

// CheckFree refuses, before any session is read, an output file the run
// could not write: one that exists without force (the commit would refuse
// it anyway, after all the work), one that exists but is not a regular
// file, or a link to nothing. It is the check atomicfile.Create makes when
// the file is written, made early; that one still runs, for a file that
// appears meanwhile. Files named only once a session is read (a Codex
// home's rollouts) and directory layouts' outputs are checked at commit.
func (pl *Plan) CheckFree(force bool) error {
	if pl.ToStdout || !pl.File || pl.place != nil {
		return nil
	}
	for _, p := range pl.Paths() {
		target, err := atomicfile.Resolve(p)
		if err != nil {
			return exitcode.IOError(err)
		}
		fi, err := os.Stat(target)
		if err != nil {
			continue // absent: free (an unreadable parent fails at the write)
		}
		if !force {
			return exitcode.IOError(fmt.Errorf("%s %w", p, atomicfile.ErrExists))
		}
		if !fi.Mode().IsRegular() {
			return exitcode.IOError(fmt.Errorf("%s: not a regular file", p))
		}
	}
	return nil
}
