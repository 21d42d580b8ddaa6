package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Name is the format's registry name and the Origin of what it reads.
const Name = "tree"

// metaNote is the tree reader's Private note on a session header.
type metaNote struct {
	// TitleSlot is oh-my-pi's fixed-size title line, verbatim, so the
	// writer can put it back in front of the header.
	TitleSlot []byte
	// TitleOnlyInSlot marks a session whose header has no title of its
	// own: the writer must not add the slot's title to the header.
	TitleOnlyInSlot bool
	// Header holds the header's members that spell a slot in a way the
	// model cannot hold (an empty cwd, branchedFrom), written back over
	// the slots as Extras are.
	Header session.Extras
}

// noteOn returns the note on m, creating it.
func noteOn(m *session.Meta) *metaNote {
	n, ok := m.Private.(*metaNote)
	if !ok {
		n = &metaNote{}
		m.Private = n
	}
	return n
}

// headerExtras are what encodeHeader writes over the slots of a header
// read here: its Extras, then the members the note keeps.
func headerExtras(m *session.Meta) session.Extras {
	n := note(m)
	if n == nil || len(n.Header) == 0 {
		return m.Extra
	}
	return append(append(session.Extras(nil), m.Extra...), n.Header...)
}

// note returns the tree reader's note on m, or nil when m was not read here.
func note(m *session.Meta) *metaNote {
	if m.Origin != Name {
		return nil
	}
	n, _ := m.Private.(*metaNote)
	return n
}

// reader streams one tree JSONL session. It keeps only what later lines need:
// for v1 files, the derived ids handed out so far (uniqueness and
// firstKeptEntryIndex); never whole entries.
type reader struct {
	*format.Lines
	meta  session.Meta
	v1    bool
	n     int             // entries read (the header is index 0)
	prev  string          // v1: id of the previous entry, the next one's parent
	byIdx []string        // v1: derived id by index (index 0 is the header)
	taken map[string]bool // v1: derived ids handed out
	next  *pending        // a line read ahead while looking for the header
	ahead *readAhead      // set by ReadAhead: lines decoded on every core
	// trusted: the caller validates every line itself (TrustSyntax)
	trusted bool
	// transient: entries are decoded from the reader's buffer (Transient)
	transient bool
}

// Transient tells the reader that its caller reads no entry's Source.Raw
// (a writer of another layout: Source says it reads only Origin and
// Unmodelled there), so Next decodes each line where it was read instead
// of copying it first, and leaves Raw unset: every value an entry holds is
// already a copy (strings unquoted, raw members cloned), so entries may
// still be kept. A copy of every byte of the input less. Call it before the
// first Next; it does nothing with ReadAhead, which must copy.
func (r *reader) Transient() { r.transient = true }

// TrustSyntax tells the reader that its caller validates every line of the
// file and uses nothing read from it unless that passes (convert, which
// validates its input alongside), so Next need not check each line's JSON
// syntax again: a line that is not JSON is then read as leniently as gjson
// reads it, never with a panic, and the caller's validation refuses the
// file. Call it before the first Next.
func (r *reader) TrustSyntax() { r.trusted = true }

type pending struct {
	b []byte
	n int
}

// start reads the lines up to the header. A file that does not start with
// one is refused: without its id there is no session.
func start(lines *format.Lines) (*reader, error) {
	rd := &reader{Lines: lines}
	name := rd.Name
	rd.meta.Origin = Name
	for {
		l, err := rd.line()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read %s: empty file, no session header", name)
		}
		if err != nil {
			return nil, err
		}
		if l.n == 1 && bytes.HasPrefix(l.b, format.BOM) {
			return nil, fmt.Errorf("read %s: line 1: the file starts with a UTF-8 byte order mark, which JSON Lines does not allow (utf8-bom)", name)
		}
		t := gjson.GetBytes(l.b, "type").String()
		if t == "title" && rd.meta.Private == nil && json1(l.b) {
			rd.meta.Private = &metaNote{TitleSlot: l.b}
			if s := gjson.GetBytes(l.b, "title"); s.Type == gjson.String && rd.meta.Title == "" {
				rd.meta.Title = s.Str
			}
			continue
		}
		if t != "session" || !json1(l.b) {
			return nil, fmt.Errorf("read %s: line %d: the first line is not a session header", name, l.n)
		}
		title := rd.meta.Title
		rd.meta.Title = ""
		if err := decodeHeader(l.b, &rd.meta); err != nil {
			return nil, fmt.Errorf("read %s: line %d: %w", name, l.n, err)
		}
		if rd.meta.Title == "" && title != "" {
			rd.meta.Title = title
			rd.meta.Private.(*metaNote).TitleOnlyInSlot = true
		}
		rd.meta.Raw = l.b
		rd.v1 = rd.meta.Version == "1"
		if rd.v1 {
			rd.taken = map[string]bool{}
			rd.byIdx = []string{""}
		}
		return rd, nil
	}
}

func json1(b []byte) bool { _, _, bad := jsonx.SyntaxError(b); return !bad }

// line returns the next non-blank line, copied (a feed's lines are).
func (r *reader) line() (pending, error) {
	l, err := r.lineView()
	if r.Fed == nil {
		l.b = bytes.Clone(l.b)
	}
	return l, err
}

// lineView returns the next non-blank line in the reader's buffer: valid
// until the next read, for a caller that keeps nothing of it (Skim).
func (r *reader) lineView() (pending, error) {
	l, err := r.NextNonBlank()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return pending{}, io.EOF
		}
		return pending{}, fmt.Errorf("read %s: %w", r.Name, err)
	}
	return pending{b: l.Bytes, n: l.N}, nil
}

func (r *reader) Meta() *session.Meta { return &r.meta }

func (r *reader) Close() error {
	if r.ahead != nil {
		r.ahead.stop()
	}
	return r.Lines.Close()
}

// Next returns the next entry. A line that is not JSON is an error naming
// the line: readers never skip silently.
func (r *reader) Next() (*session.Entry, error) {
	var e *session.Entry
	var err error
	if r.ahead != nil {
		e, err = r.ahead.next()
	} else {
		var l pending
		if r.transient {
			l, err = r.lineView()
		} else {
			l, err = r.line()
		}
		if err != nil {
			return nil, err
		}
		e, err = r.decode(l)
		if r.transient && e != nil {
			e.Raw = nil // the line is overwritten by the next read
		}
	}
	if e != nil {
		r.n++ // an object line counts as an entry even when it does not decode
	}
	if err != nil {
		return nil, err
	}
	if r.v1 {
		r.derive(e, e.Raw)
	}
	return e, nil
}

// decode turns one line into an entry. It reads nothing of r but the name
// and version, so lines can be decoded in parallel (ReadAhead). The entry is
// returned with the error when the line is an object that does not decode.
func (r *reader) decode(l pending) (*session.Entry, error) {
	if !r.trusted {
		if col, msg, bad := jsonx.SyntaxError(l.b); bad {
			return nil, fmt.Errorf("%s:%d:%d: %s", r.Name, l.n, col, msg)
		}
	}
	if !isObject(l.b) {
		return nil, fmt.Errorf("%s:%d: entry is not a JSON object", r.Name, l.n)
	}
	e := &session.Entry{Source: session.Source{Origin: Name, Raw: l.b, Line: l.n}}
	if err := decodeEntry(l.b, e, r.v1); err != nil {
		return e, fmt.Errorf("%s:%d: %w", r.Name, l.n, err)
	}
	return e, nil
}

// derive gives a v1 entry its id and parent: ids from session.DerivedID,
// chained in file order, exactly as the migrator hands them out, so that a
// v1 file and its migrated form describe the same tree.
func (r *reader) derive(e *session.Entry, b []byte) {
	e.ID = session.DerivedID(r.meta.ID, e.Line, func(id string) bool { return r.taken[id] })
	r.taken[e.ID] = true
	e.ParentID = r.prev
	r.prev = e.ID
	r.byIdx = append(r.byIdx, e.ID)
	if e.Kind != session.KindCompaction || e.Compaction == nil {
		return
	}
	// firstKeptEntryIndex counts the header as 0; only an earlier entry
	// resolves (pi's migration can only point at ids it already gave out).
	v := e.Extra.Get("firstKeptEntryIndex")
	if v == nil {
		return
	}
	if i, ok := integer(v); ok && i >= 1 && i < int64(r.n) && strconv.FormatInt(i, 10) == string(v) {
		e.Compaction.FirstKeptID = r.byIdx[i]
		e.Extra.Delete("firstKeptEntryIndex")
	}
}

// Open streams the session in ref's file.
func (Format) Open(ref format.Ref) (session.Reader, error) {
	return format.OpenLines(ref, start)
}

var _ format.Teed = Format{}

// OpenTeed streams the session in ref's file from the lines its
// validator reads (format.Teed).
func (Format) OpenTeed(ref format.Ref, lines *jsonl.Feed) (session.Reader, error) {
	return format.TeeLines(ref, lines, start)
}

// OpenReader streams a session from r.
func (Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	return format.ReadLines(name, r, start)
}
