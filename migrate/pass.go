package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/tidwall/gjson"
)

// fileState is what the steps share about one file.
type fileState struct {
	path      string
	sessionID string
	taken     *idset.Index   // ids already in the file, plus ids handed out (compact: a file can hold millions)
	ids       int            // entries that got an id
	roles     map[string]int // "hookMessage -> custom": count
	notes     []string
	skipped   []int // malformed lines dropped (1-based), with skipInvalid
}

func newFileState(path, sessionID string) *fileState {
	return &fileState{path: path, sessionID: sessionID, taken: &idset.Index{}, roles: map[string]int{}}
}

func (f *fileState) isTaken(id string) bool { _, ok := f.taken.Get(id); return ok }

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
	fh, err := os.Open(path)
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

// run streams src through the line functions into dst, one line at a time.
// Blank lines are copied as they are; every other line keeps its own
// terminator (LF, CRLF, or none on an unterminated last line).
func run(src io.Reader, dst io.Writer, fns []lineFunc, f *fileState, skipInvalid bool) error {
	lr := jsonl.NewReader(src)
	pos := -1
	for {
		l, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", f.path, err)
		}
		if len(bytes.TrimSpace(l.Bytes)) == 0 {
			if err := write(dst, l.Bytes, l); err != nil {
				return err
			}
			continue
		}
		pos++
		if finding, bad := malformed(f.path, l); bad {
			// A header is never skipped, and neither is a line that is JSON
			// but not an object: that is not a torn or corrupt write.
			if !skipInvalid || pos == 0 || finding.Rule == "schema" {
				return &invalid{finding}
			}
			f.skipped = append(f.skipped, l.N)
			continue
		}
		ln := line{n: l.N, pos: pos, b: l.Bytes, typ: gjson.GetBytes(l.Bytes, "type").String(), header: pos == 0}
		if ln.header && ln.typ != "session" {
			return &invalid{report.Finding{Path: f.path, Line: l.N, Severity: report.Error, Rule: "missing-header", Message: "the first entry is not a session header"}}
		}
		for _, fn := range fns {
			if err := fn(&ln); err != nil {
				return &invalid{report.Finding{Path: f.path, Line: l.N, Severity: report.Error, Rule: "migrate", Message: err.Error()}}
			}
		}
		if err := write(dst, ln.b, l); err != nil {
			return err
		}
	}
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
