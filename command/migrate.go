package command

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/progress"
	"github.com/sesstool/sesstool/selection"
)

// Migrate upgrades (or, where lossless, downgrades) sessions to another
// version of their layout: in place with a backup by default, to -o FILE,
// -o DIR (several sessions), -o - (standard output), or only reported with
// --dry-run. A file already at the target version is not touched. Every
// session is tried; the exit code is the worst outcome (1 refused invalid,
// 2 a refused step or a layout without versions, 3 I/O).
func Migrate(env *Env, o MigrateOptions) error {
	if o.InPlace && o.Out != "" {
		return Usage("--in-place and -o cannot be used together")
	}
	paths, forced, err := inputs(env, o.Paths, o.Format)
	if err != nil {
		return err
	}
	if slices.Contains(paths, Stdin) {
		if len(paths) > 1 {
			return Usage("- (standard input) cannot be combined with other paths")
		}
		return migrateStdin(env, o, forced)
	}
	jobs, code, err := migrateJobs(env, paths, forced, o.Out, o.Select)
	if err != nil {
		return err
	}
	m := &migrateRun{env: env, o: o, code: code, bar: progress.New(env.Stderr, len(jobs), "migrate", env.terminal())}
	if o.Out == "-" {
		m.log = env.Stderr // standard output carries the session
	} else {
		m.log = env.Stdout
	}
	for _, j := range jobs {
		m.bar.Describe(j.path)
		m.one(j)
		m.bar.Add()
	}
	m.bar.Clear()
	if m.code != ExitOK {
		return Silent(m.code)
	}
	return nil
}

// migrateJob is one session to migrate and where its output goes.
type migrateJob struct {
	f    format.Format
	path string
	out  string
}

// migrateJobs walks the paths; every path passed over is reported and
// gives the exit code it returns. -o FILE and -o - take exactly one
// session; -o naming a directory (existing, or ending in a separator)
// takes any number, each written under it at its path relative to the
// argument it was found under.
func migrateJobs(env *Env, paths []string, forced format.Format, out string, sel selection.Filter) ([]migrateJob, int, error) {
	var jobs []migrateJob
	var roots []string
	code := ExitOK
	for _, p := range paths {
		units, skips := pipeline.Walk(p, forced)
		pipeline.PrintSkips(env.Stderr, skips)
		code = exitcode.Worst(code, pipeline.Code(skips))
		for _, u := range units {
			for _, sp := range sessionPaths(u) {
				if !keepPath(u.Format, sp, sel) {
					continue
				}
				jobs = append(jobs, migrateJob{f: u.Format, path: sp})
				roots = append(roots, p)
			}
		}
	}
	if out == "" {
		return jobs, code, nil
	}
	if pipeline.DirTarget(out) {
		for i := range jobs {
			jobs[i].out = pipeline.Mirror(out, roots[i], jobs[i].path)
			if _, file := jobs[i].f.(format.Stream); !file {
				// A directory layout's output is the container its
				// session goes under (its name may change: ash's key).
				jobs[i].out = filepath.Dir(jobs[i].out)
			}
			if err := os.MkdirAll(filepath.Dir(jobs[i].out), 0o755); err != nil {
				return nil, 0, IO(fmt.Errorf("create %s: %w", filepath.Dir(jobs[i].out), err))
			}
		}
		return jobs, code, nil
	}
	if len(jobs) > 1 {
		return nil, 0, Usage("-o %s takes one session, but %d were found (give -o a directory: an existing one, or a name ending in /)", out, len(jobs))
	}
	for i := range jobs {
		jobs[i].out = out
	}
	return jobs, code, nil
}

// sessionPaths lists the sessions of a unit one by one, so that a store of
// a layout that keeps a session as a directory (ash) migrates session by
// session, as a folder of tree files does. A unit that names one session,
// or whose sessions are not paths of their own, is one job; Migrate reports
// what is wrong with it.
func sessionPaths(u pipeline.Unit) []string {
	if _, ok := u.Format.(format.Migrator); !ok {
		return []string{u.Path}
	}
	refs, err := u.Format.Sessions(u.Path)
	if err != nil || len(refs) == 0 {
		return []string{u.Path}
	}
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		if r.ID != "" {
			return []string{u.Path}
		}
		out = append(out, r.Path)
	}
	return out
}

type migrateRun struct {
	env  *Env
	o    MigrateOptions
	bar  *progress.Bar
	log  io.Writer
	code int
	name func(string) string // how a path is shown (standard input is spooled to a file)
}

func (m *migrateRun) fail(code int, format string, args ...any) {
	m.bar.Clear()
	fmt.Fprintf(m.env.Stderr, "sesstool: "+format+"\n", args...)
	m.code = max(m.code, code)
}

func (m *migrateRun) show(p string) string {
	if m.name != nil {
		return m.name(p)
	}
	return p
}

// one migrates one session and reports what happened.
func (m *migrateRun) one(j migrateJob) {
	mg, ok := j.f.(format.Migrator)
	if !ok {
		m.fail(ExitUsage, "%s: the %s layout has no versions to migrate", m.show(j.path), j.f.Name())
		return
	}
	to := m.o.To
	if to == "" {
		vs := mg.Versions()
		to = vs[len(vs)-1]
	}
	if !slices.Contains(mg.Versions(), to) {
		m.fail(ExitUsage, "%s: %s has no version %q (known: %s)", m.show(j.path), j.f.Name(), to, strings.Join(mg.Versions(), ", "))
		return
	}
	res, err := mg.Migrate(j.path, to, format.MigrateOptions{
		Out: j.out, Stdout: m.env.Stdout, NoBackup: m.o.NoBackup, DryRun: m.o.DryRun, SkipInvalid: m.o.SkipInvalid,
	})
	if err != nil {
		m.failed(j, err)
		return
	}
	m.bar.Clear()
	m.report(j, res)
}

func (m *migrateRun) failed(j migrateJob, err error) {
	var inv *format.InvalidError
	switch {
	case errors.As(err, &inv):
		m.bar.Clear()
		for _, f := range inv.Findings {
			f.Path = m.show(f.Path)
			fmt.Fprintln(m.env.Stderr, f.Text())
		}
		m.fail(ExitInvalid, "%s: not valid, not migrated (left as it was); --skip-invalid drops malformed lines", m.show(j.path))
	case errors.Is(err, format.ErrRefusedStep):
		m.fail(ExitUsage, "%s: %v", m.show(j.path), err)
	default:
		m.fail(ExitIO, "%s: %v", m.show(j.path), err)
	}
}

func (m *migrateRun) report(j migrateJob, res format.MigrateResult) {
	p := m.show(j.path)
	w := m.log
	switch {
	case !res.Changed && res.Written != "":
		fmt.Fprintf(w, "%s: already at version %s, copied unchanged to %s\n", p, res.To, res.Written)
	case !res.Changed:
		fmt.Fprintf(w, "%s: already at version %s, not touched\n", p, res.To)
	case m.o.DryRun:
		fmt.Fprintf(w, "%s: would migrate %s -> %s\n", p, res.From, res.To)
		for _, c := range res.Changes {
			fmt.Fprintf(w, "  %s\n", c)
		}
		return
	default:
		where := ""
		switch {
		case res.Written != "" && res.Written != j.path:
			where = ", written to " + res.Written
		case res.Written == "":
			where = ", written to standard output"
		}
		if res.Backup != "" {
			where += ", backup " + res.Backup
		}
		fmt.Fprintf(w, "%s: migrated %s -> %s%s\n", p, res.From, res.To, where)
	}
	for _, n := range res.Skipped {
		fmt.Fprintf(w, "  line %d: malformed, skipped (--skip-invalid)\n", n)
	}
}

// migrateStdin makes migrate a filter: standard input is spooled to a
// private temporary file (a migration reads its input more than once) and
// the result goes to standard output, or to -o FILE.
func migrateStdin(env *Env, o MigrateOptions, forced format.Format) error {
	spool := pipeline.Spool // refused at its first error, as a file is before a migration
	if o.SkipInvalid {
		spool = pipeline.SpoolUnchecked // malformed lines are dropped, not refused
	}
	sp, err := spool(env.Stdin, forced)
	if err != nil {
		return err
	}
	defer sp.Remove()
	out := o.Out
	if out == "" {
		out = "-"
	}
	m := &migrateRun{env: env, o: o, log: env.Stderr, name: sp.Show}
	m.one(migrateJob{f: sp.Format, path: sp.Path, out: out})
	if m.code != ExitOK {
		return Silent(m.code)
	}
	return nil
}
