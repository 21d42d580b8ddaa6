package command

import (
	"fmt"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/report"
)

// ValidateOptions are validate's flags.
type ValidateOptions struct {
	Format    string
	Output    string // text or json
	MaxErrors int
	Workers   int
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
	rep := &report.Report{MaxErrors: o.MaxErrors}
	opt := format.ValidateOptions{Workers: o.Workers}
	code := ExitOK
	for _, p := range paths {
		c, err := validatePath(env, p, forced, rep, opt)
		if err != nil {
			return err
		}
		code = exitcode.Worst(code, c)
	}
	if o.Output == "json" {
		err = rep.WriteJSON(env.Stdout)
	} else {
		err = writeText(env, rep)
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

// validatePath adds the findings for p to rep and returns the exit code of
// what could not be read (findings too). The error is for standard input
// only, which cannot be read at all when it holds no single-file layout.
func validatePath(env *Env, p string, forced format.Format, rep *report.Report, opt format.ValidateOptions) (int, error) {
	if p == Stdin {
		s, br, err := pipeline.DetectStdin(env.Stdin, forced)
		if err != nil {
			return 0, err
		}
		if err := s.ValidateReader(pipeline.StdinName, br, rep, opt); err != nil {
			rep.Add(report.Finding{Path: pipeline.StdinName, Severity: report.Error, Rule: pipeline.RuleUnreadable, Message: err.Error()})
			return ExitIO, nil
		}
		return ExitOK, nil
	}
	units, skips := pipeline.Walk(p, forced)
	for _, s := range skips {
		rep.Add(s.Finding())
		if s.Named {
			rep.Counted("", 1, 0)
		}
	}
	code := pipeline.Code(skips)
	for _, u := range units {
		if err := u.Format.Validate(u.Path, rep, opt); err != nil {
			// A file of the session could not be read: say so and go on.
			rep.Add(report.Finding{Path: u.Path, Severity: report.Error, Rule: pipeline.RuleUnreadable, Message: err.Error()})
			code = exitcode.Worst(code, ExitIO)
		}
	}
	return code, nil
}

func writeText(env *Env, rep *report.Report) error {
	for _, f := range rep.Findings() {
		line := f.Text()
		if env.Color {
			line = colorize(f, line)
		}
		if _, err := fmt.Fprintln(env.Stdout, line); err != nil {
			return err
		}
	}
	s := rep.Summary()
	_, err := fmt.Fprintf(env.Stderr, "%d files, %d entries, %d errors, %d warnings\n", s.Files, s.Entries, s.Errors, s.Warnings)
	return err
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
