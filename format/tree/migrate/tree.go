package migrate

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
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
	f, err := t.rewrite(path, h, todo, opt, &res, since, true)
	if errors.Is(err, errRestart) {
		// An id handed out was already on a later line (never in a file
		// the tree validator passes: v1 entries have no ids). The input
		// has been validated; do it again with the pre-pass.
		f, err = t.rewrite(path, h, todo, opt, &res, since, false)
	}
	if err != nil {
		return res, err
	}
	res.Changed = true
	res.Skipped = f.skipped
	res.Changes = f.changes()
	return res, nil
}

// rewrite validates the input and writes the new version.
func (t Tree) rewrite(path string, h header, todo []step, opt format.MigrateOptions, res *format.MigrateResult, since atomicfile.Stamp, first bool) (*fileState, error) {
	rw, body, err := t.prepare(path, h, todo, opt, first)
	if err != nil {
		return rw.f, err
	}
	ran := false
	err = stream(path, opt, res, &since, func(src io.Reader, dst io.Writer) error {
		ran = true
		return body(src, dst)
	})
	if err != nil && !ran && rw.alongside {
		// stream failed before the body ran (the file changed since the
		// plan, an existing -o FILE or .bak): the validator's verdict still
		// comes first, as when it ran before anything else.
		if _, verr := t.check(path, false); verr != nil {
			return rw.f, verr
		}
	}
	return rw.f, err
}

// prepare sets the rewrite up and returns the body stream runs, which reads
// the input once for the validator and once for the rewrite. Where the
// output can still be thrown away (a new file, an in-place replacement, a
// dry run) the validator runs alongside the rewrite, on the same locked
// file, and the output is kept only if both succeed: an invalid input is
// refused with the validator's findings, as if it had run first. Standard
// output cannot be taken back, so there, and with --skip-invalid (the
// rewrite needs to know which lines to drop), the validator runs first.
// Either way the rewrite does not check JSON syntax again. first is false
// for the second attempt after errRestart.
func (t Tree) prepare(path string, h header, todo []step, opt format.MigrateOptions, first bool) (*rewrite, func(io.Reader, io.Writer) error, error) {
	f := newFileState(path, h.id)
	rw := &rewrite{f: f, skipInvalid: opt.SkipInvalid}
	rw.alongside = t.Validate != nil && first && !opt.SkipInvalid && opt.Out != "-"
	switch {
	case t.Validate == nil:
	case rw.alongside:
		rw.trusted = true
	case !first && !opt.SkipInvalid: // validated by the first attempt, of this same file (see stream's stamp)
		rw.trusted = true
	default:
		skip, err := t.check(path, opt.SkipInvalid)
		if err != nil {
			return rw, nil, err
		}
		rw.trusted, rw.skip = true, skip
	}
	if h.version == 1 {
		// Derived ids must not collide with ids already in the file. Where
		// a wrong guess can be thrown away, the rewrite notes each line's
		// id as it goes instead of reading the whole file first.
		rw.speculate = first && opt.Out != "-"
		if !rw.speculate {
			if err := collectIDs(path, f.inFile); err != nil {
				return rw, nil, err
			}
		}
	}
	rw.fns = make([]lineFunc, len(todo))
	for i, s := range todo {
		rw.fns[i] = s.start(f)
	}
	if !rw.alongside {
		return rw, rw.run, nil
	}
	return rw, func(src io.Reader, dst io.Writer) error {
		verdict := make(chan error, 1)
		go func() {
			defer func() {
				// A panic here would end the process: the command's own
				// recovery only covers the goroutine it runs on.
				if r := recover(); r != nil {
					verdict <- fmt.Errorf("internal error in the validator (please report): %v", r)
				}
			}()
			_, err := t.check(path, false)
			verdict <- err
		}()
		err := rw.run(src, dst)
		if verr := <-verdict; verr != nil {
			return verr // the validator's findings win, as when it ran first
		}
		return err
	}, nil
}

// check runs the validator and refuses the file on any error finding, except
// malformed lines when skipInvalid is set: it returns those lines, for the
// rewrite to skip.
func (t Tree) check(path string, skipInvalid bool) (map[int]bool, error) {
	rep := &report.Report{}
	if err := t.Validate(path, rep); err != nil {
		return nil, err
	}
	var kept []report.Finding
	skip := map[int]bool{}
	bad := false
	for _, f := range rep.Findings() {
		if skipInvalid && syntaxRules[f.Rule] {
			skip[f.Line] = true
			continue
		}
		kept = append(kept, f)
		bad = bad || f.Severity == report.Error
	}
	if bad {
		return nil, &format.InvalidError{Path: path, Findings: kept}
	}
	return skip, nil
}

type header struct {
	id      string
	version int
}

// readHeader reads the first non-blank line, which must be the session header.
func readHeader(path string) (header, error) {
	fh, err := regfile.Open(path)
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
		l, err := lr.NextNonBlank()
		if errors.Is(err, io.EOF) {
			return refuse(0, "missing-header", "empty file: no session header")
		}
		if err != nil {
			return header{}, fmt.Errorf("read %s: %w", path, err)
		}
		// The version is read past a byte order mark, as detection reads
		// it; the validator refuses the file for it (utf8-bom).
		l.Bytes = format.TrimBOM(l.Bytes)
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
