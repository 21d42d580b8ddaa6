package command

import (
	"fmt"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
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
func Validate(env *Env, o ValidateOptions) error {
	if o.Output != "" && o.Output != "text" && o.Output != "json" {
		return Usage("--output must be text or json, not %q", o.Output)
	}
	forced, err := lookupFormat(o.Format)
	if err != nil {
		return err
	}
	paths, err := resolveInputs(env, o.Paths, o.Format)
	if err != nil {
		return err
	}
	rep := &report.Report{MaxErrors: o.MaxErrors}
	opt := format.ValidateOptions{Workers: o.Workers}
	for _, p := range paths {
		if err := validatePath(env, p, forced, rep, opt); err != nil {
			return err
		}
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
		return Silent(ExitInvalid)
	}
	return nil
}

func validatePath(env *Env, p string, forced format.Format, rep *report.Report, opt format.ValidateOptions) error {
	if p == Stdin {
		s, br, err := stdinFormat(env.Stdin, forced)
		if err != nil {
			return err
		}
		return IO(s.ValidateReader("<stdin>", br, rep, opt))
	}
	units, skipped, err := registry.Walk(p, forced)
	if err != nil {
		return IO(err)
	}
	for _, s := range skipped {
		sev := report.Warning
		if s.Path == p {
			sev = report.Error // named on the command line: not a silent skip
		}
		rep.Add(report.Finding{Path: s.Path, Severity: sev, Rule: "unknown-format", Message: s.Reason})
		if s.Path == p {
			rep.Counted("", 1, 0)
		}
	}
	if len(units) == 0 && (len(skipped) == 0 || skipped[0].Path != p) {
		// An empty directory named on the command line: say so rather than
		// report success on nothing.
		rep.Add(report.Finding{Path: p, Severity: report.Error, Rule: "no-sessions", Message: "no session files or directories found here"})
		rep.Counted("", 1, 0)
	}
	for _, u := range units {
		if err := u.Format.Validate(u.Path, rep, opt); err != nil {
			return IO(err)
		}
	}
	return nil
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
