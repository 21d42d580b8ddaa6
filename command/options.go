package command

import "github.com/sesstool/sesstool/selection"

// MigrateOptions are migrate's flags.
type MigrateOptions struct {
	To          string
	Format      string
	Out         string
	InPlace     bool
	NoBackup    bool
	DryRun      bool
	SkipInvalid bool
	Select      selection.Filter
	Paths       []string
}

// ConvertOptions are convert's flags.
type ConvertOptions struct {
	From       string
	To         string
	Out        string
	Force      bool
	Session    string
	LossReport string
	Strict     bool
	Project    string
	Select     selection.Filter
	Paths      []string
	// TruncateMessages cuts a message the target cannot read whole (goat:
	// a 10 MiB line) to fit, counted as lost, instead of refusing it.
	TruncateMessages bool
}
