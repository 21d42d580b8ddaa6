package ash

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Versions lists ash's session versions, oldest first.
func (Format) Versions() []string { return []string{"1", Current} }

// Version reads the header's version.
func (Format) Version(path string) (string, error) {
	h, ok := headerOf(path)
	if !ok {
		return "", fmt.Errorf("%s: not an ash session directory", path)
	}
	return h.Get("version").String(), nil
}

// Migrate upgrades a version "1" session to "2": the header says "2",
// messages get parent_id chained in file order, state.json gains
// "branches": [], and the session moves to the directory today's ash
// computes (user_id joined the key). The new directory is built complete
// and validated next to the old one, then renamed into place; the old one
// is kept as <dir>.bak unless opt.NoBackup.
func (f Format) Migrate(path, to string, opt format.MigrateOptions) (format.MigrateResult, error) {
	res := format.MigrateResult{Path: path, To: to}
	if to == "" {
		res.To = Current
	}
	from, err := f.Version(path)
	if err != nil {
		return res, err
	}
	res.From = from
	if res.To != "1" && res.To != Current {
		return res, fmt.Errorf("%w: ash has no version %q (known: 1, 2)", format.ErrRefusedStep, res.To)
	}
	if from != "1" && from != Current {
		return res, invalid(path, from) // an unknown version is a finding of validate's
	}
	if from == res.To {
		return res, nil // already current: not touched at all
	}
	if res.To == "1" {
		// The same refusal, worded the same way, as a tree step down to 1:
		// the caller names the path.
		return res, fmt.Errorf("%w: version %s to 1 (ash only upgrades; v1 has no parent links or branches, so a step down would lose them)", format.ErrRefusedStep, from)
	}
	if opt.Out == "-" {
		return res, fmt.Errorf("an ash session is a directory; it cannot be written to standard output")
	}
	if err := invalid(path, from); err != nil {
		return res, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return res, err
	}
	r, err := f.Open(format.Ref{Path: abs})
	if err != nil {
		return res, err
	}
	up := &upgrade{Reader: r}
	up.meta()
	w := newWriter(r.Meta())
	key := w.key()
	container := filepath.Dir(abs)
	if opt.Out != "" {
		container = opt.Out
	}
	dst := filepath.Join(container, key)
	res.Changed = true
	res.Changes = []string{
		fmt.Sprintf("%s: header version \"1\" -> \"2\"", ContextFile),
		"messages: parent_id chained in file order",
		fmt.Sprintf("%s: \"branches\": [] added", StateFile),
	}
	if dst != abs {
		res.Changes = append(res.Changes, fmt.Sprintf("directory %s -> %s (today's session key)", filepath.Base(abs), key))
	}
	if opt.DryRun {
		r.Close()
		return res, nil
	}
	if dst != abs && exists(dst) {
		r.Close()
		return res, fmt.Errorf("%s: already exists; not overwriting it", dst)
	}
	backup := abs + ".bak"
	if opt.Out == "" && !opt.NoBackup && exists(backup) {
		r.Close()
		return res, fmt.Errorf("%s: backup already exists, from an earlier migration or one that was interrupted; "+
			"if it is no longer needed, remove it and run again, or run with --no-backup or -o DIR", backup)
	}
	if err := os.MkdirAll(container, 0o755); err != nil {
		r.Close()
		return res, fmt.Errorf("create %s: %w", container, err)
	}
	tmp, err := os.MkdirTemp(container, "."+key+".tmp-")
	if err != nil {
		r.Close()
		return res, fmt.Errorf("create %s: %w", container, err)
	}
	names, err := w.writeAll(up, tmp)
	r.Close()
	if err == nil {
		err = keepModes(abs, tmp, names)
	}
	if err == nil {
		err = checkMigrated(tmp, key)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return res, err
	}
	if err := place(abs, tmp, dst, backup, opt); err != nil {
		os.RemoveAll(tmp)
		return res, err
	}
	res.Written = dst
	if opt.Out == "" && !opt.NoBackup {
		res.Backup = backup
	}
	return res, nil
}

// invalid validates the session at path by the rules of its version and
// returns its errors as a format.InvalidError, or nil when it has none (or
// the I/O error that stopped validation).
func invalid(path, version string) error {
	rep := &report.Report{}
	if err := validateSession(path, "", rep, format.ValidateOptions{}, version == "1"); err != nil {
		return err
	}
	var errs []report.Finding
	for _, fd := range rep.Findings() {
		if fd.Severity == report.Error {
			errs = append(errs, fd)
		}
	}
	if len(errs) == 0 {
		if version != "1" && version != Current {
			return fmt.Errorf("unknown ash version %q (known: 1, 2)", version)
		}
		return nil
	}
	return &format.InvalidError{Path: path, Findings: errs}
}

// place moves the finished tmp to dst and the original out of the way.
func place(src, tmp, dst, backup string, opt format.MigrateOptions) error {
	if opt.Out != "" {
		return os.Rename(tmp, dst) // the original stays where it is
	}
	aside := backup
	if opt.NoBackup {
		aside = tmp + ".old"
	}
	if err := os.Rename(src, aside); err != nil {
		return fmt.Errorf("move %s aside: %w", src, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Rename(aside, src)
		return fmt.Errorf("write %s: %w", dst, err)
	}
	syncDir(filepath.Dir(dst))
	if opt.NoBackup {
		return os.RemoveAll(aside)
	}
	return nil
}

// checkMigrated validates the new directory by the v2 rules before it
// replaces anything.
func checkMigrated(dir, key string) error {
	rep := &report.Report{}
	if err := validateSession(dir, key, rep, format.ValidateOptions{}, false); err != nil {
		return err
	}
	if rep.Errors() > 0 {
		return fmt.Errorf("migrated session does not validate (a bug): %s", rep.Findings()[0].Text())
	}
	return nil
}

// keepModes gives each rewritten file the mode of the file it replaces.
func keepModes(src, tmp string, names []string) error {
	for _, n := range names {
		fi, err := os.Stat(filepath.Join(src, n))
		if err != nil {
			continue // a file the migration added
		}
		if err := os.Chmod(filepath.Join(tmp, n), fi.Mode().Perm()); err != nil {
			return fmt.Errorf("chmod %s: %w", n, err)
		}
	}
	return os.Chmod(tmp, dirMode(src))
}

func dirMode(p string) os.FileMode {
	if fi, err := os.Stat(p); err == nil {
		return fi.Mode().Perm()
	}
	return 0o755
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// upgrade is the v1 session seen as v2: the reader already chains v1
// messages in file order, so only the version and state.json change.
type upgrade struct {
	session.Reader
}

func (u *upgrade) meta() {
	m := u.Reader.Meta()
	m.Version = Current
	if n := noteOf[metaNote](&m.Source); n != nil && n.State != nil && !gjson.GetBytes(n.State, "branches").Exists() {
		var o jsonx.Obj
		_ = jsonx.Members(n.State, func(k string, v []byte) { o.Raw(k, v) })
		o.Raw("branches", []byte("[]"))
		n.State = o.Bytes()
	}
}

func (u *upgrade) Next() (*session.Entry, error) {
	e, err := u.Reader.Next()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return e, err
}
