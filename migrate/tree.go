package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/report"
	"github.com/tidwall/gjson"
)

// Tree migrates tree JSONL sessions. It implements format.Migrator; the tree
// layout delegates to it.
type Tree struct {
	// Validate checks the file at path and adds findings to rep (its error is
	// for I/O only). The tree layout passes its own validator, so an input is
	// refused on exactly what `sesstool validate` reports. Nil checks only
	// what the migration itself needs (header, JSON syntax of every line).
	Validate func(path string, rep *report.Report) error
}

var _ format.Migrator = Tree{}

// Newest is the newest tree version.
const Newest = 3

// Versions lists the tree versions, oldest first.
func (Tree) Versions() []string { return []string{"1", "2", "3"} }

// Version reports the version in the session header at path (no version
// member means 1).
func (Tree) Version(path string) (string, error) {
	h, err := readHeader(path)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(h.version), nil
}

// syntaxRules are the findings --skip-invalid turns into skipped lines.
var syntaxRules = map[string]bool{"json-syntax": true, "invalid-utf8": true, "torn-line": true}

// Migrate rewrites the session at path to version to. See the package doc
// and docs/migrate.md for what each step does and what is safe.
func (t Tree) Migrate(path, to string, opt format.MigrateOptions) (format.MigrateResult, error) {
	res := format.MigrateResult{Path: path, To: to}
	since, err := atomicfile.StampOf(path) // the version the plan is made on
	if err != nil {
		return res, err
	}
	target, err := strconv.Atoi(to)
	if err != nil || target < 1 || target > Newest {
		return res, fmt.Errorf("%w: unknown tree version %q (known: 1, 2, 3)", format.ErrRefusedStep, to)
	}
	h, err := readHeader(path)
	if err != nil {
		return res, err
	}
	res.From = strconv.Itoa(h.version)
	if h.version == target {
		res.Changes = []string{"already at version " + to + ": not touched"}
		if opt.DryRun || opt.Out == "" {
			return res, nil
		}
		return res, copyOut(path, opt, &res)
	}
	todo, err := plan(h.version, target)
	if err != nil {
		return res, err
	}
	if err := t.check(path, opt.SkipInvalid); err != nil {
		return res, err
	}
	f := newFileState(path, h.id)
	if h.version == 1 {
		if err := collectIDs(path, f.taken); err != nil {
			return res, err
		}
	}
	fns := make([]lineFunc, len(todo))
	for i, s := range todo {
		fns[i] = s.start(f)
	}
	if err := stream(path, opt, &res, &since, func(src io.Reader, dst io.Writer) error {
		return run(src, dst, fns, f, opt.SkipInvalid)
	}); err != nil {
		return res, err
	}
	res.Changed = true
	res.Skipped = f.skipped
	res.Changes = f.changes()
	return res, nil
}

// check runs the validator and refuses the file on any error finding, except
// malformed lines when skipInvalid is set (run skips and lists those).
func (t Tree) check(path string, skipInvalid bool) error {
	if t.Validate == nil {
		return nil
	}
	rep := &report.Report{}
	if err := t.Validate(path, rep); err != nil {
		return err
	}
	var kept []report.Finding
	bad := false
	for _, f := range rep.Findings() {
		if skipInvalid && syntaxRules[f.Rule] {
			continue
		}
		kept = append(kept, f)
		bad = bad || f.Severity == report.Error
	}
	if bad {
		return &format.InvalidError{Path: path, Findings: kept}
	}
	return nil
}

type header struct {
	id      string
	version int
}

// readHeader reads the first non-blank line, which must be the session header.
func readHeader(path string) (header, error) {
	fh, err := os.Open(path)
	if err != nil {
		return header{}, fmt.Errorf("read %s: %w", path, err)
	}
	defer fh.Close()
	lr := jsonl.NewReader(fh)
	refuse := func(n int, rule, msg string, args ...any) (header, error) {
		return header{}, &format.InvalidError{Path: path, Findings: []report.Finding{{
			Path: path, Line: n, Severity: report.Error, Rule: rule, Message: fmt.Sprintf(msg, args...)}}}
	}
	for {
		l, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return refuse(0, "missing-header", "empty file: no session header")
		}
		if err != nil {
			return header{}, fmt.Errorf("read %s: %w", path, err)
		}
		if len(bytes.TrimSpace(l.Bytes)) == 0 {
			continue
		}
		if f, bad := malformed(path, l); bad {
			return header{}, &format.InvalidError{Path: path, Findings: []report.Finding{f}}
		}
		v := gjson.ParseBytes(l.Bytes)
		id := v.Get("id")
		if v.Get("type").String() != "session" || id.Type != gjson.String {
			return refuse(l.N, "missing-header", "the first entry is not a session header with a string id")
		}
		ver := v.Get("version")
		switch {
		case !ver.Exists():
			return header{id.Str, 1}, nil
		case ver.Type == gjson.Number && (ver.Raw == "1" || ver.Raw == "2" || ver.Raw == "3"):
			return header{id.Str, int(ver.Int())}, nil
		}
		return refuse(l.N, "unknown-version", "unknown session version %s (known: 1, 2, 3)", ver.Raw)
	}
}
