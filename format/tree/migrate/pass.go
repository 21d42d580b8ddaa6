package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/tidwall/gjson"
)

// fileState is what the steps share about one file.
type fileState struct {
	path      string
	sessionID string
	inFile    *idset.Index   // ids the input holds (the header's; in a valid v1 file no other)
	derived   hexSet         // ids handed out
	ids       int            // entries that got an id
	roles     map[string]int // "hookMessage -> custom": count
	notes     []string
	skipped   []int // malformed lines dropped (1-based), with skipInvalid
}

func newFileState(path, sessionID string) *fileState {
	return &fileState{path: path, sessionID: sessionID, inFile: &idset.Index{}, roles: map[string]int{}}
}

// isTaken reports whether a derived id would collide: with an id in the
// input or one handed out already.
func (f *fileState) isTaken(id string) bool {
	if _, ok := f.inFile.Get(id); ok {
		return true
	}
	v, ok := idset.Hex8(id)
	return ok && f.derived.has(v)
}

func (f *fileState) notef(format string, args ...any) {
	f.notes = append(f.notes, fmt.Sprintf(format, args...))
}

// changes renders what the steps did, for --dry-run and the command's report.
func (f *fileState) changes() []string {
	out := append([]string(nil), f.notes...)
	if f.ids > 0 {
		out = append(out, fmt.Sprintf("%d entries get an id and a parentId (one chain in file order)", f.ids))
	}
	keys := make([]string, 0, len(f.roles))
	for k := range f.roles {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%d messages: role %s", f.roles[k], k))
	}
	for _, n := range f.skipped {
		out = append(out, fmt.Sprintf("line %d: malformed, skipped (--skip-invalid)", n))
	}
	return out
}

// collectIDs is the pre-pass: it reads only each line's top-level "id", so
// derived ids never collide with an id already in the file, even one on a
// later line.
func collectIDs(path string, taken *idset.Index) error {
	fh, err := regfile.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer fh.Close()
	lr := jsonl.NewReader(fh)
	for {
		l, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		if id := gjson.GetBytes(l.Bytes, "id"); id.Type == gjson.String {
			taken.Put(id.Str, 0)
		}
	}
}

// errRestart says that an id handed out without the pre-pass turned up later
// in the input, which the pre-pass would have prevented: the rewrite is done
// again, after the pre-pass.
var errRestart = errors.New("a derived id is already in the file: again with the pre-pass")

// rewrite is the pass that writes the new version: every line is read once,
// walked once (where its top-level members are), edited by each step in
// turn and written with all edits applied at once.
type rewrite struct {
	f   *fileState
	fns []lineFunc
	// trusted: a validator has checked (or is checking, and its verdict
	// wins) every line of this very input, so the rewrite does not check
	// JSON syntax again. Otherwise it checks each line itself.
	trusted bool
	// alongside: the validator runs at the same time as the rewrite.
	alongside bool
	// skip lists the lines the validator found malformed, when trusted and
	// --skip-invalid is set; skipInvalid has the rewrite's own checks drop
	// malformed lines.
	skip        map[int]bool
	skipInvalid bool
	// speculate: ids are derived without the pre-pass, each line's own id
	// being noted as the line is read; errRestart when that was wrong.
	speculate bool
}

// run streams src through the line functions into dst, one line at a time.
// Blank lines are copied as they are; every other line keeps its own
// terminator (LF, CRLF, or none on an unterminated last line).
func (rw *rewrite) run(src io.Reader, dst io.Writer) error {
	lr := jsonl.NewReader(src)
	var ln line
	pos := -1
	for {
		l, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", rw.f.path, err)
		}
		out := l.Bytes
		if len(bytes.TrimSpace(l.Bytes)) > 0 {
			pos++
			skip, err := rw.drop(l, pos)
			if err != nil {
				return err
			}
			if skip {
				continue
			}
			if out, err = rw.edit(&ln, l, pos); err != nil {
				return err
			}
		}
		if err := write(dst, out, l); err != nil {
			return err
		}
	}
}

// edit runs the steps over one line and returns it as it is to be written.
func (rw *rewrite) edit(ln *line, l jsonl.Line, pos int) ([]byte, error) {
	f := rw.f
	if !ln.reset(l.Bytes) {
		finding, bad := malformed(f.path, l)
		if !bad {
			finding = report.Finding{Path: f.path, Line: l.N, Severity: report.Error, Rule: "schema", Message: "not a JSON object"}
		}
		return nil, &invalid{finding}
	}
	if rw.speculate {
		if id := ln.result("id"); id.Type == gjson.String {
			if err := rw.see(id.Str); err != nil {
				return nil, err
			}
		}
	}
	ln.n, ln.pos, ln.header = l.N, pos, pos == 0
	ln.typ = ln.result("type").String()
	if ln.header && ln.typ != "session" {
		return nil, &invalid{report.Finding{Path: f.path, Line: l.N, Severity: report.Error, Rule: "missing-header", Message: "the first entry is not a session header"}}
	}
	for _, fn := range rw.fns {
		if err := fn(ln); err != nil {
			return nil, &invalid{report.Finding{Path: f.path, Line: l.N, Severity: report.Error, Rule: "migrate", Message: err.Error()}}
		}
	}
	if !ln.edited() {
		return l.Bytes, nil
	}
	ln.out = ln.render(ln.out[:0])
	return ln.out, nil
}

// drop reports whether the line is a malformed one to skip, or the error
// that refuses the file because of it.
func (rw *rewrite) drop(l jsonl.Line, pos int) (bool, error) {
	var finding report.Finding
	switch {
	case rw.trusted && !rw.skip[l.N]:
		return false, nil
	case rw.trusted:
		finding, _ = malformed(rw.f.path, l)
	default:
		var bad bool
		if finding, bad = malformed(rw.f.path, l); !bad {
			return false, nil
		}
		// A line that is JSON but not an object is not a torn or corrupt
		// write: never skipped.
		if !rw.skipInvalid || finding.Rule == "schema" {
			return false, &invalid{finding}
		}
	}
	if pos == 0 {
		return false, &invalid{finding} // a header is never skipped
	}
	rw.f.skipped = append(rw.f.skipped, l.N)
	if !rw.speculate {
		return true, nil
	}
	if id := gjson.GetBytes(l.Bytes, "id"); id.Type == gjson.String {
		return true, rw.see(id.Str) // the pre-pass would have seen it too
	}
	return true, nil
}

// see notes an id the input holds, and asks for the pre-pass when an
// earlier line was already given it.
func (rw *rewrite) see(id string) error {
	if v, ok := idset.Hex8(id); ok && rw.f.derived.has(v) {
		return errRestart
	}
	rw.f.inFile.Put(id, 0)
	return nil
}

// malformed reports a line that is not one JSON object.
func malformed(path string, l jsonl.Line) (report.Finding, bool) {
	if col, msg, bad := jsonx.SyntaxError(l.Bytes); bad {
		rule := "json-syntax"
		if msg == "invalid UTF-8" {
			rule = "invalid-utf8"
		}
		return report.Finding{Path: path, Line: l.N, Column: col, Severity: report.Error, Rule: rule, Message: msg}, true
	}
	if !gjson.ParseBytes(l.Bytes).IsObject() {
		return report.Finding{Path: path, Line: l.N, Severity: report.Error, Rule: "schema", Message: "not a JSON object"}, true
	}
	return report.Finding{}, false
}

func write(w io.Writer, b []byte, l jsonl.Line) error {
	if _, err := w.Write(b); err != nil {
		return err
	}
	var term string
	switch {
	case l.CR:
		term = "\r\n"
	case l.Terminated:
		term = "\n"
	}
	_, err := io.WriteString(w, term)
	return err
}

// invalid is a finding that stops a migration; Migrate turns it into a
// format.InvalidError.
type invalid struct{ report.Finding }

func (e *invalid) Error() string { return e.Finding.Text() }
