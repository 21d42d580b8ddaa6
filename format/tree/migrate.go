package tree

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/tree/migrate"
	"github.com/sesstool/sesstool/report"
)

// The tree layout's versions are upgraded by package migrate, which splices
// raw lines and knows nothing of this package; it is handed this layout's
// validator, so an invalid input is refused with the same findings
// `sesstool validate` prints.
func (f Format) migrator() migrate.Tree {
	return migrate.Tree{Validate: func(p string, rep *report.Report) error {
		return f.Validate(p, rep, format.ValidateOptions{})
	}}
}

// Versions lists pi's versions, oldest first.
func (f Format) Versions() []string { return f.migrator().Versions() }

// Version reports the version of the session file at path.
func (f Format) Version(path string) (string, error) { return f.migrator().Version(path) }

// Migrate upgrades (or, for 3 -> 2, downgrades) the session file at path.
func (f Format) Migrate(path, to string, opt format.MigrateOptions) (format.MigrateResult, error) {
	return f.migrator().Migrate(path, to, opt)
}

var _ format.Migrator = Format{}
