package flat

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// LineSchema is the schema every line is checked against.
const LineSchema = "flat/v1/line.json"

// Validate checks the flat file at path.
func (f *Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	r, c, err := format.OpenPrefix(path, opt.Size)
	if err != nil {
		return err
	}
	defer c.Close()
	return f.ValidateReader(path, r, rep, opt)
}

// ValidateReader checks a flat session read from r. name is used in findings
// and, for a forked file, to look for the parent file next to it.
func (f *Format) ValidateReader(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions) error {
	sch, err := schema.Compile(LineSchema)
	if err != nil {
		return err
	}
	rules := &rules{path: name, rep: rep, schema: sch}
	j := validate.JSONL{Path: name, Rules: rules, Report: rep, Workers: opt.Workers, Tee: opt.Tee}
	if _, err := j.Run(r); err != nil {
		return err
	}
	rep.Counted(Name, 1, rules.entries)
	return nil
}

// rules are the checks a schema cannot express. Every reference in a flat
// file points backwards (the file is append-only), so each line is checked
// when it is seen and Finish has nothing left to do. Rule names are stable;
// docs/flat.md lists them.
type rules struct {
	path   string
	rep    *report.Report
	schema *jsonschema.Schema

	lines     int          // lines seen, valid or not
	header    bool         // line 1 was a session header
	entries   int          // lines after the header
	ids       idset.Index  // entry id -> line; a few bytes per entry, so memory stays flat
	toolCalls idset.Hashed // by hash: a few bytes a call
	chained   int          // entries with a parent_id seen so far
}

func (r *rules) Schema(gjson.Result) *jsonschema.Schema { return r.schema }

func (r *rules) errorf(line int, ptr, rule, f string, a ...any) {
	r.rep.Errorf(r.path, line, ptr, rule, f, a...)
}

func (r *rules) warnf(line int, ptr, rule, f string, a ...any) {
	r.rep.Warnf(r.path, line, ptr, rule, f, a...)
}

func (r *rules) Check(l validate.Line) {
	r.lines++
	first := r.lines == 1
	if !first {
		r.entries++
	}
	if !l.Valid {
		if first {
			r.errorf(l.N, "", "missing-header", "the first line must be the session header {\"type\":\"session\",\"version\":1,...}")
		}
		return
	}
	v := l.Value
	typ := v.Get("type").String()
	if first {
		if r.checkHeader(l, typ) {
			return
		}
		// Not a header: still check the line as the entry it is.
	}
	switch typ {
	case "session":
		r.errorf(l.N, "/type", "duplicate-header", "a second session header (the header belongs on line 1 only)")
		return
	case "branch":
		r.checkBranch(l)
	case "message":
		r.checkMessage(l)
	case "compaction":
		r.checkCompaction(l)
	case "":
	default:
		r.warnf(l.N, "/type", "unknown-type", "unknown entry type %q (the agent skips it)", typ)
	}
	r.checkID(l)
}

func (r *rules) Finish() {
	if r.lines == 0 {
		r.errorf(0, "", "missing-header", "empty file: no session header")
	}
}

// checkHeader reports whether line 1 is the session header.
func (r *rules) checkHeader(l validate.Line, typ string) bool {
	if typ != "session" {
		r.entries++ // the line is an entry after all
		r.errorf(l.N, "", "missing-header", "the first line must be the session header {\"type\":\"session\",\"version\":1,...}, not a %q line", typ)
		return false
	}
	r.header = true
	if id := l.Value.Get("id"); id.Type == gjson.String {
		if why := format.UnsafeID(id.String()); why != "" {
			r.errorf(l.N, "/id", "unsafe-id", "session id %q %s: it cannot name an output file or directory", id.String(), why)
		}
	}
	if ver := l.Value.Get("version"); ver.Type == gjson.Number && ver.Raw != "1" {
		r.errorf(l.N, "/version", "unknown-version", "version %s is not a flat version sesstool knows (1)", ver.Raw)
	}
	return true
}

// checkID enforces unique ids; a line with no string id was already a schema error.
func (r *rules) checkID(l validate.Line) {
	id := l.Value.Get("id")
	if id.Type != gjson.String {
		return
	}
	if prev, ok := r.ids.Get(id.String()); ok {
		r.errorf(l.N, "/id", "duplicate-id", "id %q is already used on line %d", id.String(), prev)
		return
	}
	r.ids.Put(id.String(), int32(l.N)) // copied: the key does not pin the line
}

func (r *rules) has(id string) bool { _, ok := r.ids.Get(id); return ok }

// checkParent: the first chained entry has parent_id "", every later one
// names an earlier entry.
func (r *rules) checkParent(l validate.Line) {
	p := l.Value.Get("parent_id")
	if p.Type != gjson.String {
		return
	}
	r.chained++
	pid := p.String()
	switch {
	case r.chained == 1 && pid != "":
		r.errorf(l.N, "/parent_id", "root-parent", "the first entry's parent_id must be \"\", not %q", pid)
	case r.chained > 1 && pid == "":
		r.errorf(l.N, "/parent_id", "dangling-parent", "parent_id is \"\" but only the first entry may be a root (flat is linear)")
	case r.chained > 1 && !r.has(pid):
		r.errorf(l.N, "/parent_id", "dangling-parent", "parent_id %q names no earlier entry", pid)
	}
}

func (r *rules) checkMessage(l validate.Line) {
	r.checkParent(l)
	v := l.Value
	outer, inner := v.Get("role"), v.Get("message.role")
	if outer.Type == gjson.String && inner.Type == gjson.String && outer.String() != inner.String() {
		r.errorf(l.N, "/role", "role-mismatch", "role %q differs from message.role %q (the agent dispatches on the outer role)", outer.String(), inner.String())
	}
	if inner.String() == "assistant" {
		v.Get("message.content").ForEach(func(_, b gjson.Result) bool {
			if b.Get("type").String() == "tool_call" && b.Get("id").Type == gjson.String {
				r.toolCalls.Put(b.Get("id").String(), 0)
			}
			return true
		})
	}
	if inner.String() == "tool_result" {
		id := v.Get("message.tool_call_id")
		if id.Type == gjson.String && !r.toolCalls.Has(id.String()) {
			r.errorf(l.N, "/message/tool_call_id", "unknown-tool-call", "tool_call_id %q names no earlier tool_call block", id.String())
		}
	}
}

func (r *rules) checkCompaction(l validate.Line) {
	r.checkParent(l)
	k := l.Value.Get("first_kept_entry_id")
	if k.Type == gjson.String && !r.has(k.String()) {
		r.errorf(l.N, "/first_kept_entry_id", "dangling-first-kept", "first_kept_entry_id %q names no earlier entry (the agent would keep no message from before the compaction)", k.String())
	}
}

// checkBranch checks a fork's branch line: it belongs on line 2, and its
// fork_entry_id must be an entry of the parent file when that can be read.
func (r *rules) checkBranch(l validate.Line) {
	if r.lines == 2 && r.header {
		r.entries-- // the fork record is session metadata, not an entry
	} else {
		r.warnf(l.N, "", "misplaced-branch", "a branch line belongs directly after the header (line 2); sesstool reads it as an entry here")
	}
	v := l.Value
	parent, fork := v.Get("parent_session_path"), v.Get("fork_entry_id")
	if parent.Type != gjson.String || fork.Type != gjson.String || parent.String() == "" {
		return // the schema already said so
	}
	found, ids, err := r.parentIDs(parent.String())
	if err != nil {
		r.warnf(l.N, "/parent_session_path", "parent-unavailable", "fork_entry_id %q cannot be checked: the parent file %s cannot be read (%v)", fork.String(), parent.String(), err)
		return
	}
	if !ids[fork.String()] {
		r.errorf(l.N, "/fork_entry_id", "dangling-fork-entry", "fork_entry_id %q names no entry of the parent file %s", fork.String(), found)
	}
}

// parentIDs reads the ids of the parent file: at its recorded path, else a
// file of the same name next to this one (files move between machines).
func (r *rules) parentIDs(p string) (string, map[string]bool, error) {
	candidates := []string{p}
	if r.path != "" && r.path != "<stdin>" {
		if sib := filepath.Join(filepath.Dir(r.path), filepath.Base(p)); sib != p {
			candidates = append(candidates, sib)
		}
	}
	var firstErr error
	for _, c := range candidates {
		if !r.beside(c) {
			// The path comes from the file, not from the user: it could
			// name anything on the machine. Only what lies in the
			// directory of the file the user gave is read.
			firstErr = fmt.Errorf("not read: outside %s, the directory of the file validated", r.dir())
			continue
		}
		ids, err := readIDs(c)
		if err == nil {
			return c, ids, nil
		}
		if firstErr == nil || !errors.Is(err, errNotFound) {
			// what is wrong with a file that is there says more than
			// that the path as recorded is absent
			if c != p {
				err = fmt.Errorf("%s: %w", c, err) // the copy beside this file
			}
			firstErr = err
		}
	}
	return "", nil, firstErr
}

// dir is the directory of the file validated ("." for standard input).
func (r *rules) dir() string {
	if r.path == "" || r.path == "<stdin>" {
		return "."
	}
	return filepath.Dir(r.path)
}

// beside reports whether p, links resolved, lies inside the directory of
// the file validated.
func (r *rules) beside(p string) bool {
	base, err1 := filepath.EvalSymlinks(r.dir())
	abs, err2 := filepath.EvalSymlinks(p)
	if err1 != nil || err2 != nil {
		return err2 != nil // a missing file is read (and reported) as missing
	}
	base, _ = filepath.Abs(base)
	abs, _ = filepath.Abs(abs)
	rel, err := filepath.Rel(base, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

var errNotFound = errors.New("not found")

func readIDs(path string) (map[string]bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, errNotFound
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	fh, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	ids := map[string]bool{}
	// The parent is named by the file, not by the user: a line longer
	// than any session's (a sparse file of zeros has one line of its whole
	// size) is refused where it passes MaxHeld, never gathered whole.
	lr := jsonl.NewHeldReader(fh)
	for n := 0; ; n++ {
		l, err := lr.Next()
		if err != nil {
			if err == io.EOF {
				return ids, nil
			}
			var long *jsonl.TooLongError
			if errors.As(err, &long) {
				return nil, fmt.Errorf("line %d: longer than %d MiB, more than a session line sesstool reads for its ids", long.Line, long.Max>>20)
			}
			return nil, err
		}
		if n == 0 {
			continue // the header's id is the session's, not an entry's
		}
		if id := gjson.GetBytes(l.Bytes, "id"); id.Type == gjson.String {
			ids[id.String()] = true
		}
	}
}
