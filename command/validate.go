package command

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/selection"
)

// ValidateOptions are validate's flags.
type ValidateOptions struct {
	Format    string
	Output    string // text or json
	MaxErrors int
	Workers   int
	Select    selection.Filter
	Paths     []string
}

// Validate checks every session under the given paths and prints findings.
// Every path is read, whatever happened to the ones before it: a path that
// cannot be read is a finding, and the run ends with the findings, the
// summary and the worst exit code (3 when an input could not be read, else
// 1 when there are errors).
func Validate(env *Env, o ValidateOptions) error {
	if o.Output != "" && o.Output != "text" && o.Output != "json" {
		return Usage("--output must be text or json, not %q", o.Output)
	}
	if o.Workers < 0 || o.Workers > MaxWorkers {
		// Each worker holds a batch of lines: a huge count exhausts memory
		// before the first line is read.
		return Usage("--workers must be between 0 (one per CPU) and %d, not %d", MaxWorkers, o.Workers)
	}
	paths, forced, err := inputs(env, o.Paths, o.Format)
	if err != nil {
		return err
	}
	rep := &report.Report{MaxErrors: o.MaxErrors, Spill: spillFindings}
	defer rep.Close()
	opt := format.ValidateOptions{Workers: o.Workers}
	emit := textFinding(env)
	if o.Output == "json" {
		enc := json.NewEncoder(env.Stdout)
		enc.SetEscapeHTML(false)
		emit = func(f report.Finding) error { return enc.Encode(f) }
	}
	code := ExitOK
	for _, st := range steps(paths, forced, o.Select) {
		c, err := st.run(env, rep, opt)
		if err != nil {
			return err
		}
		code = exitcode.Worst(code, c)
		// Each step's findings are printed once it is done, so that what
		// is held does not grow with the number of files or findings.
		if err := rep.Drain(emit); err != nil {
			return IO(fmt.Errorf("write output: %w", err))
		}
	}
	if o.Output == "json" {
		err = json.NewEncoder(env.Stdout).Encode(map[string]report.Summary{"summary": rep.Summary()})
	} else {
		s := rep.Summary()
		_, err = fmt.Fprintf(env.Stderr, "%d files, %d entries, %d errors, %d warnings\n", s.Files, s.Entries, s.Errors, s.Warnings)
	}
	if err != nil {
		return IO(fmt.Errorf("write output: %w", err))
	}
	if rep.Errors() > 0 {
		code = exitcode.Worst(code, ExitInvalid)
	}
	if code != ExitOK {
		return Silent(code)
	}
	return nil
}

// spillFindings is the heap validate's findings may take before they are
// moved to a temporary file (report.Report.Spill).
const spillFindings = 4 << 20

// A step is one thing validate reads and then prints the findings of: a
// unit the walk found, a path it passed over, or standard input. Steps run
// in the order of their paths, so that the output is sorted by path as
// well as by line within each step.
type step struct {
	path   string
	unit   *pipeline.Unit
	skip   *pipeline.Skip
	forced format.Format // standard input's
}

// steps walks every path first (a walk holds only paths) and sorts what
// it found.
func steps(paths []string, forced format.Format, sel selection.Filter) []step {
	var out []step
	for _, p := range paths {
		if p == Stdin {
			out = append(out, step{path: pipeline.StdinName, forced: forced})
			continue
		}
		units, skips := pipeline.Walk(p, forced)
		units = selectUnits(units, sel)
		for i := range skips {
			out = append(out, step{path: skips[i].Path, skip: &skips[i]})
		}
		for i := range units {
			out = append(out, step{path: units[i].Path, unit: &units[i]})
		}
	}
	slices.SortStableFunc(out, func(a, b step) int { return strings.Compare(a.path, b.path) })
	return out
}

// run adds the step's findings to rep and returns the exit code of what
// could not be read (findings too). The error is for standard input only,
// which cannot be read at all when it holds no single-file layout.
func (st step) run(env *Env, rep *report.Report, opt format.ValidateOptions) (int, error) {
	switch {
	case st.skip != nil:
		rep.Add(st.skip.Finding())
		if st.skip.Named {
			rep.Counted("", 1, 0)
		}
		return st.skip.Code(), nil
	case st.unit != nil:
		u := st.unit
		if err := u.Format.Validate(u.Path, rep, opt); err != nil {
			// A file of the session could not be read: say so and go on.
			rep.Add(report.Finding{Path: u.Path, Severity: report.Error, Rule: pipeline.RuleUnreadable, Message: err.Error()})
			return ExitIO, nil
		}
		return ExitOK, nil
	}
	s, br, sp, err := pipeline.ReadStdin(env.Stdin, st.forced)
	if err != nil {
		return 0, err
	}
	if sp != nil {
		defer sp.Remove()
		return validateSpooled(sp, rep, opt), nil
	}
	if err := s.ValidateReader(pipeline.StdinName, br, rep, opt); err != nil {
		rep.Add(report.Finding{Path: pipeline.StdinName, Severity: report.Error, Rule: pipeline.RuleUnreadable, Message: err.Error()})
		return ExitIO, nil
	}
	return ExitOK, nil
}

// textFinding prints a finding as a text line, coloured on a terminal.
func textFinding(env *Env) func(report.Finding) error {
	return func(f report.Finding) error {
		line := f.Text()
		if env.Color {
			line = colorize(f, line)
		}
		_, err := fmt.Fprintln(env.Stdout, line)
		return err
	}
}

func colorize(f report.Finding, line string) string {
	word := string(f.Severity)
	code := "31"
	if f.Severity == report.Warning {
		code = "33"
	}
	for i := 0; i+len(word) <= len(line); i++ {
		if line[i:i+len(word)] == word && i >= 2 && line[i-2:i] == ": " {
			return line[:i] + "\x1b[" + code + "m" + word + "\x1b[0m" + line[i+len(word):]
		}
	}
	return line
}

// MaxWorkers bounds --workers: past the machine's CPUs more workers only
// cost memory.
const MaxWorkers = 1024
