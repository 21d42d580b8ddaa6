package format

import (
	"errors"
	"fmt"
	"io"

	"github.com/sesstool/sesstool/report"
)

// MigrateOptions tune one migration.
type MigrateOptions struct {
	Out         string    // "" in place; a path; "-" for Stdout
	Stdout      io.Writer // where "-" writes
	NoBackup    bool      // in place without keeping <path>.bak
	DryRun      bool      // report what would change, write nothing
	SkipInvalid bool      // drop malformed lines (listed in the result) instead of refusing
}

// MigrateResult says what a migration did.
type MigrateResult struct {
	Path    string
	From    string
	To      string
	Changed bool     // false when the input was already at the target version
	Written string   // the path written ("" for a dry run or stdout)
	Backup  string   // the backup kept, if any
	Skipped []int    // malformed lines dropped with SkipInvalid
	Changes []string // human-readable summary lines, for --dry-run
}

// ErrRefusedStep is wrapped by Migrate when the requested version cannot be
// reached without losing something (a step down that is not lossless).
var ErrRefusedStep = errors.New("refused")

// InvalidError is returned by Migrate when the input does not validate (or a
// line is malformed); the file is left as it was. Findings say why.
type InvalidError struct {
	Path     string
	Findings []report.Finding
}

func (e *InvalidError) Error() string {
	for _, f := range e.Findings {
		if f.Severity == report.Error {
			return fmt.Sprintf("%s is not valid, not migrated: %s", e.Path, f.Text())
		}
	}
	return fmt.Sprintf("%s is not valid, not migrated", e.Path)
}
