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

// infoSpooled is info of a directory layout's session file that came on
// standard input, read from its spooled copy and named <stdin>.
func infoSpooled(sp *pipeline.Spooled) ([]Stats, int, error) {
	refs, err := sp.Format.Sessions(sp.Path)
	if err != nil {
		return nil, 0, invalidAt(sp.Path, pipeline.StdinName, err)
	}
	var out []Stats
	for _, ref := range refs {
		r, err := sp.Format.Open(ref)
		if err != nil {
			return nil, 0, invalidAt(sp.Path, pipeline.StdinName, err)
		}
		st, err := collect(pipeline.StdinName, sp.Format.Name(), r)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, st)
	}
	return out, ExitOK, nil
}
