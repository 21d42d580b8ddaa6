package command

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/selection"
)

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
	Select     selection.Filter
	Paths      []string
	// Options are the values of the layouts' own write options given as
	// flags (registry.WriteOptions: --project, --truncate-messages), by
	// name; the target's writer is handed those it declares.
	Options format.OptionValues
}
