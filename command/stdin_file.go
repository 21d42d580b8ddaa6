package command

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/report"
)

// validateSpooled validates a directory layout's session file that came
// on standard input (a Claude Code transcript), from its spooled copy:
// its findings and counts go to rep under the name <stdin>.
func validateSpooled(sp *pipeline.Spooled, rep *report.Report, opt format.ValidateOptions) int {
	var own report.Report
	code := ExitOK
	if err := sp.Format.Validate(sp.Path, &own, opt); err != nil {
		own.Add(report.Finding{Path: sp.Path, Severity: report.Error, Rule: pipeline.RuleUnreadable, Message: err.Error()})
		code = ExitIO
	}
	for _, f := range own.Findings() {
		f.Path, f.Message = sp.Show(f.Path), sp.Show(f.Message)
		rep.Add(f)
	}
	sum := own.Summary()
	files := sum.Files
	for name, n := range sum.Formats {
		rep.Counted(name, n, 0)
		files -= n
	}
	rep.Counted("", files, sum.Entries)
	return code
}
