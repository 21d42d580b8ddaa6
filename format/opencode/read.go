package opencode

import (
	"fmt"
	"io"
	"runtime"
	"sort"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// docReader maps a Doc onto the model a batch of messages at a time, so a
// conversion holds the store's bytes but never the whole session's model on
// top of them. Batches ahead of the caller are mapped on other goroutines
// (the caller, a writer, works meanwhile); entries come out in order.
type docReader struct {
	meta    session.Meta
	src     msgSource // the messages not yet handed to a batch
	srcDone bool
	err     error // the source's, returned once the entries before it are
	ahead   []*mapped
	cur     []*session.Entry
	prev    string
	origin  string    // when set, every entry's Origin (the export document)
	name    string    // the file read, for errors
	closer  io.Closer // the file read, when the reader opened it
}

// mapped is one batch of messages mapped onto entries.
type mapped struct {
	entries []*session.Entry
	panic   any // raised again by Next, on the caller's goroutine
	done    chan struct{}
}

// batchMsgs is how many messages a goroutine maps at a time; a session of
// at most this many is mapped by the caller itself.
const batchMsgs = 64

func newDocReader(d *Doc, children []string) *docReader {
	r := &docReader{meta: metaOf(d, children), src: &sliceSource{msgs: d.Messages}}
	// task tools name their child session: link it even when the store
	// does not hold it (a lone export).
	for _, m := range d.Messages {
		r.meta.Children = childrenOf(m, r.meta.Children)
	}
	sort.Strings(r.meta.Children)
	return r
}

func (r *docReader) Meta() *session.Meta { return &r.meta }

func (r *docReader) Next() (*session.Entry, error) {
	e, ok := r.pop()
	if !ok {
		if r.err != nil {
			return nil, r.err
		}
		return nil, io.EOF
	}
	if !isTrigger(e) {
		return e, nil
	}
	// A compaction's trigger belongs to the summary after it.
	if len(r.cur) == 0 && !r.advance() {
		return e, nil
	}
	next := r.cur[0]
	if next.Kind != session.KindCompaction || next.Message == nil {
		return e, nil
	}
	r.cur = r.cur[1:]
	n := notes[msgNote](&next.Source)
	if n == nil {
		n = &msgNote{}
	}
	n.Trigger = e
	next.Private, next.ParentID = n, e.ParentID
	return next, nil
}

func (r *docReader) pop() (*session.Entry, bool) {
	for len(r.cur) == 0 {
		if !r.advance() {
			return nil, false
		}
	}
	e := r.cur[0]
	r.cur = r.cur[1:]
	return e, true
}

// isTrigger reports whether e is a compaction's trigger (triggers).
func isTrigger(e *session.Entry) bool {
	if e.Kind != session.KindMessage || e.Message == nil || len(e.Message.Content) > 0 {
		return false
	}
	n := notes[msgNote](&e.Source)
	if n == nil {
		return false
	}
	parts, compactions := 0, 0
	_ = jsonx.Elements(n.Parts, func(_ int, v []byte) {
		parts++
		if gjson.GetBytes(v, "part.type").String() == "compaction" {
			compactions++
		}
	})
	return triggers(string(e.Message.Role), parts, compactions)
}

// triggers reports whether a message of role with parts parts, compactions
// of them "compaction" parts, is a compaction's trigger: a user message
// whose only part is "compaction", the request for the summary after it.
// The reader folds it into that summary, and the validator counts it out
// of the entries it reports (foldedTriggers): both ask this.
func triggers(role string, parts, compactions int) bool {
	return role == string(session.RoleUser) && parts == 1 && compactions == 1
}

// advance makes the next batch current, false at the end.
func (r *docReader) advance() bool {
	// Keep a few batches in flight per core; a goroutine maps one batch
	// and ends, so a reader left unfinished leaves nothing running.
	for window := 2 * runtime.GOMAXPROCS(0); len(r.ahead) < window && !r.srcDone; {
		msgs, err := r.src.take(batchMsgs)
		if err != nil || len(msgs) < batchMsgs {
			r.srcDone = true
			if err != nil {
				r.err = r.wrap(err)
			}
		}
		if len(msgs) == 0 {
			break
		}
		if len(r.ahead) == 0 && r.srcDone {
			// a session of at most one batch is mapped by the caller
			r.cur = r.link(mapMessages(msgs))
			return true
		}
		m := &mapped{done: make(chan struct{})}
		go m.run(msgs)
		r.ahead = append(r.ahead, m)
	}
	if len(r.ahead) == 0 {
		return false
	}
	m := r.ahead[0]
	r.ahead = r.ahead[1:]
	<-m.done
	if m.panic != nil {
		panic(m.panic)
	}
	r.cur = r.link(m.entries)
	return true
}

func (r *docReader) wrap(err error) error {
	if r.name == "" {
		return err
	}
	return fmt.Errorf("read %s: %w", r.name, err)
}

func (m *mapped) run(msgs []Msg) {
	defer close(m.done)
	defer func() { m.panic = recover() }()
	m.entries = mapMessages(msgs)
}

func mapMessages(msgs []Msg) []*session.Entry {
	var out []*session.Entry
	for _, msg := range msgs {
		out = append(out, entriesOf(msg)...)
	}
	return out
}

// link chains entries after the ones before them.
func (r *docReader) link(es []*session.Entry) []*session.Entry {
	for _, e := range es {
		e.ParentID = r.prev
		r.prev = e.ID
		if r.origin != "" {
			e.Origin = r.origin
		}
	}
	return es
}

func (r *docReader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

func (Format) Open(ref format.Ref) (session.Reader, error) { return open(ref) }

func (Export) Open(ref format.Ref) (session.Reader, error) { return open(ref) }

func (Export) OpenReader(name string, r io.Reader) (session.Reader, error) {
	// Read once, as it comes: the child sessions the messages name join
	// Meta's as they are read.
	s, err := openExport(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	dr := newStreamReader(s, nil, nil)
	s.children = &dr.meta.Children
	for _, m := range s.pending {
		dr.meta.Children = childrenOf(m, dr.meta.Children)
	}
	sort.Strings(dr.meta.Children)
	dr.name = name
	return dr, nil
}

func open(ref format.Ref) (session.Reader, error) { return openIn(ref, nil) }

func openIn(ref format.Ref, snap *snapshot) (session.Reader, error) {
	st, l, err := openStoreFrom(ref.Path, snap)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	found, children, err := findSession(st, ref, snap)
	if err != nil {
		return nil, err
	}
	if l == layoutExport {
		return exportStreamReader(found.File, children)
	}
	d, err := st.load(*found)
	if err != nil {
		return nil, err
	}
	return newDocReader(d, children), nil
}

// findSession finds ref in st and the sessions whose parent it is.
func findSession(st store, ref format.Ref, snap *snapshot) (*sessionRef, []string, error) {
	if snap.holds(ref.Path) {
		ix, err := snap.index(st)
		if err != nil {
			return nil, nil, err
		}
		i, ok := ix.byID[ref.ID]
		if !ok && ref.ID == "" && len(ix.refs) == 1 {
			i, ok = 0, true
		}
		if !ok {
			return nil, nil, fmt.Errorf("%s: no session %q", ref.Path, ref.ID)
		}
		return &ix.refs[i], ix.children[ix.refs[i].ID], nil
	}
	refs, err := st.list()
	if err != nil {
		return nil, nil, err
	}
	var found *sessionRef
	var children []string
	for i, r := range refs {
		if r.ID == ref.ID || (ref.ID == "" && len(refs) == 1) {
			found = &refs[i]
		}
	}
	if found == nil {
		return nil, nil, fmt.Errorf("%s: no session %q", ref.Path, ref.ID)
	}
	for _, r := range refs {
		if r.ParentID == found.ID {
			children = append(children, r.ID)
		}
	}
	return found, children, nil
}
