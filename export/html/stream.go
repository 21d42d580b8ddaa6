package html

import (
	"errors"
	"io"
	"sort"
	"strconv"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// A page is rendered as its entries are read, not from a session held in
// memory: each entry is rendered and deflated (on every core, in chunks)
// as soon as the results of its tool calls have arrived, and then dropped;
// what is kept of it is a skeleton (ids, links, roles, usage, tool names)
// from which the header, the conversation tree and the active path are
// computed at the end. So an export holds the compressed page (about a
// fifth of the page's data) and a few hundred bytes per entry, whatever
// the size of the session. The tree's links, the labels and the leaf are
// known only at the end, so they close the data: {"nodes":[...],
// "parents":[...],"labels":[[i,"label"],...],"leaf":N,"end":N,"prompts":[[i,"12 tool calls · 3m20s"],...],"runs":[...]}.
// leaf is the shown leaf, end the last entry of the active path: past the
// shown leaf when records (bookkeeping, a run's markers) follow the
// conversation's last entry; they are on the active path, not shown.
// So are the sub-agent runs: which entries each holds and which entry
// holds the call that started it. The page's script puts a run's entries,
// rendered as they were read, inside that call: nothing is held for them.

// window is how many entries may wait for the results of their tool calls.
// A call whose result has not come within it is shown without it, and the
// result on its own.
const window = 1024

// Next returns the next entry, or io.EOF.
type Next func() (*session.Entry, error)

// ReadError is an error of the session's reader, LeafError an unknown
// --leaf: the caller tells them from an error writing the page.
type (
	ReadError struct{ Err error }
	LeafError struct{ Err error }
)

func (e ReadError) Error() string { return e.Err.Error() }
func (e ReadError) Unwrap() error { return e.Err }
func (e LeafError) Error() string { return e.Err.Error() }
func (e LeafError) Unwrap() error { return e.Err }

// Stream renders the session next reads as a page into w: meta is the
// session's header, leaf the branch to show ("" = the active path). It
// returns the transcript of the session's skeleton, for a site's index.
func Stream(w io.Writer, meta session.Meta, next Next, leaf string) (*transcript.Transcript, error) {
	return renderPage(w, meta, next, func(s *session.Session) (*transcript.Transcript, error) { return transcript.New(s, leaf) })
}

// Write renders t as a page.
func Write(w io.Writer, t *transcript.Transcript) error {
	i := 0
	next := func() (*session.Entry, error) {
		if i == len(t.S.Entries) {
			return nil, io.EOF
		}
		i++
		return t.S.Entries[i-1], nil
	}
	_, err := renderPage(w, t.S.Meta, next, func(s *session.Session) (*transcript.Transcript, error) {
		st, err := transcript.New(s, "")
		if err == nil && t.LeafAt >= 0 && t.LeafAt != st.LeafAt {
			st.Leaf, st.LeafAt, st.Path, st.Tail = s.Entries[t.LeafAt], t.LeafAt, st.Conv.PathTo(t.LeafAt), t.Tail
		}
		return st, err
	})
	return err
}

// pager pairs results with calls while entries stream past, and hands
// chunks of entries to the workers once their results are in.
type pager struct {
	skel    transcript.Compact
	pending []*session.Entry // read, not yet handed out; pending[0] is entry base
	base    int
	open    map[string]bool           // calls of pending entries
	results map[string]*session.Entry // their first results
	paired  map[*session.Entry]bool
	// the first chunk, worked out as entries arrive rather than over
	// every pending entry at each one: cut is its length once known (0
	// before), weight what pending[:weighed] weigh, answered how many of
	// its first entries have every call's result
	cut, weight, weighed, answered int
}

func newPager() *pager {
	return &pager{open: map[string]bool{}, results: map[string]*session.Entry{}, paired: map[*session.Entry]bool{}}
}

// add takes the next entry.
func (p *pager) add(e *session.Entry) {
	if m := e.Message; m != nil {
		if m.Role == session.RoleTool && m.ToolCallID != "" && p.open[m.ToolCallID] && p.results[m.ToolCallID] == nil {
			p.results[m.ToolCallID] = e
			p.paired[e] = true
		}
		for _, b := range m.Content {
			if b.Type == session.BlockToolCall && b.ToolCallID != "" {
				p.open[b.ToolCallID] = true
			}
		}
	}
	p.pending = append(p.pending, e)
	p.skel.Add(e)
	p.weigh()
}

// weigh extends the first chunk over the entries not yet weighed, until
// it has chunkEntries entries or chunkBytes of their text.
func (p *pager) weigh() {
	for p.cut == 0 && p.weighed < len(p.pending) {
		p.weight += weightOf(p.pending[p.weighed])
		p.weighed++
		if p.weighed == chunkEntries || p.weight >= chunkBytes {
			p.cut = p.weighed
		}
	}
}

// weightOf is about how many bytes e adds to the page's data: its
// text, arguments, images and details, and some markup. It depends only on
// e, so the chunks, and the page, do too.
func weightOf(e *session.Entry) int {
	n := 256
	if m := e.Message; m != nil {
		for _, b := range m.Content {
			n += len(b.Text) + len(b.Arguments) + len(b.Data)
		}
		if m.Exec != nil {
			n += len(m.Exec.Command) + len(m.Exec.Output)
		}
		n += len(m.Details)
	}
	return n
}

// ready reports whether the first chunk of pending entries can be rendered:
// every call in it has its result, or the window is full.
func (p *pager) ready() bool {
	if p.cut == 0 {
		return false
	}
	if len(p.pending) >= window {
		return true
	}
	// a pending entry's results only come: those found stay found
	for ; p.answered < p.cut; p.answered++ {
		if m := p.pending[p.answered].Message; m != nil {
			for _, b := range m.Content {
				if b.Type == session.BlockToolCall && b.ToolCallID != "" && p.results[b.ToolCallID] == nil {
					return false
				}
			}
		}
	}
	return true
}

// take hands out the first n pending entries with what rendering them
// needs, and forgets their calls: a result that comes later stands alone.
func (p *pager) take(n int) job {
	es := append([]*session.Entry(nil), p.pending[:n]...)
	j := job{start: p.base, entries: es, t: &transcript.Transcript{Results: map[string]*session.Entry{}, Paired: map[*session.Entry]bool{}}}
	for _, e := range es {
		if p.paired[e] {
			j.t.Paired[e] = true
			delete(p.paired, e)
		}
		if m := e.Message; m != nil {
			for _, b := range m.Content {
				if b.Type == session.BlockToolCall && b.ToolCallID != "" {
					if r := p.results[b.ToolCallID]; r != nil {
						j.t.Results[b.ToolCallID] = r
					}
					delete(p.results, b.ToolCallID)
					delete(p.open, b.ToolCallID)
				}
			}
		}
	}
	clear(p.pending[:n])
	p.pending = p.pending[n:]
	p.base += n
	p.cut, p.weight, p.weighed, p.answered = 0, 0, 0, 0
	p.weigh()
	return j
}

// renderPage reads every entry, rendering and deflating chunks on every core as
// they become ready, then writes the page: its head and header (from the
// skeleton), then the data, whose compressed chunks were kept in order.
func renderPage(w io.Writer, meta session.Meta, next Next, pick func(*session.Session) (*transcript.Transcript, error)) (*transcript.Transcript, error) {
	meta.Raw = nil
	p := newPager()
	pool := startWorkers()
	defer pool.stop()
	sp, err := newSpill()
	if err != nil {
		return nil, err
	}
	defer sp.close()
	var out []chan *chunk // handed out, not yet spilled, in order
	drain := func(wait bool) error {
		for len(out) > 0 {
			var c *chunk
			if wait {
				c = <-out[0]
			} else {
				select {
				case c = <-out[0]:
				default:
					return nil
				}
			}
			out = out[1:]
			if c.err != nil {
				return c.err
			}
			if err := sp.add(c); err != nil {
				return err
			}
			recycle(c)
		}
		return nil
	}
	pl, read := newPlain(), 0
	submit := func(j job) chan *chunk { pl.keep(j); return pool.submit(j) }
	if err := sp.add(deflatePiece([]byte(`{"nodes":[`+"\n"), false)); err != nil {
		return nil, err
	}
	for {
		e, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, ReadError{err}
		}
		pl.add(read, e)
		read++
		p.add(e)
		for p.ready() {
			out = append(out, submit(p.take(p.cut)))
		}
		if err := drain(false); err != nil {
			return nil, err
		}
	}
	for len(p.pending) > 0 {
		n := p.cut
		if n == 0 {
			n = len(p.pending) // the last chunk, short
		}
		out = append(out, submit(p.take(n)))
	}
	// the conversation is worked out while the workers finish the last
	// chunks: at the end of a session one core would otherwise wait
	t, leafErr := pick(&session.Session{Meta: meta, Entries: p.skel.Entries()})
	if err := drain(true); err != nil {
		return nil, err
	}
	if leafErr != nil {
		return nil, LeafError{leafErr}
	}
	if err := sp.add(deflatePiece(tail(t), true)); err != nil {
		return nil, err
	}
	return t, writePage(w, t, sp, pl)
}

// tail ends the data: each entry's parent in the conversation tree, the
// labels, and the leaf shown.
func tail(t *transcript.Transcript) []byte {
	b := []byte(`],"parents":[`)
	for i := range t.S.Entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(t.Conv.Parent(i)), 10)
	}
	b = append(b, `],"labels":[`...)
	type lab struct {
		i int
		l string
	}
	var ls []lab
	for id, l := range t.Labels {
		for i := t.Conv.Index(id); i >= 0; i = -1 {
			ls = append(ls, lab{i, l})
		}
	}
	sort.Slice(ls, func(a, b int) bool { return ls[a].i < ls[b].i })
	for k, l := range ls {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(l.i), 10)
		b = append(b, ',')
		b = appendJSONString(b, l.l)
		b = append(b, ']')
	}
	b = append(b, `],"leaf":`...)
	b = strconv.AppendInt(b, int64(t.LeafAt), 10)
	b = append(b, `,"end":`...)
	b = strconv.AppendInt(b, int64(pathEnd(t)), 10)
	b = appendPrompts(b, t)
	b = appendRuns(b, t.Runs())
	return append(b, '}')
}

// pathEnd is the index of the last entry of the shown branch's path,
// records after the shown leaf (t.Tail) included: the active path's leaf
// when there is a tail, else the shown leaf.
func pathEnd(t *transcript.Transcript) int {
	if len(t.Tail) > 0 {
		return t.Conv.LeafAt()
	}
	return t.LeafAt
}

// appendPrompts adds what followed each prompt of the shown branch, its
// tool calls and time ("prompts":[[i,"12 tool calls · 3m20s"],...]),
// known only once every entry is read: the page's script puts it in the
// prompt's heading.
func appendPrompts(b []byte, t *transcript.Transcript) []byte {
	type prompt struct {
		i int
		s string
	}
	var ps []prompt
	for id, p := range t.Prompts() {
		if i := t.Conv.Index(id); i >= 0 {
			ps = append(ps, prompt{i, p.Summary()})
		}
	}
	sort.Slice(ps, func(a, b int) bool { return ps[a].i < ps[b].i })
	b = append(b, `,"prompts":[`...)
	for k, p := range ps {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(p.i), 10)
		b = append(b, ',')
		b = appendJSONString(b, p.s)
		b = append(b, ']')
	}
	return append(b, ']')
}

// appendRuns ends the data with the sub-agent runs: the page's script
// puts each inside the call that started it (host, the entry holding
// call), or after the conversation when no entry holds it (host -1). An
// entry of a run is rendered as any other; only where it is shown differs.
func appendRuns(b []byte, runs []*transcript.Run) []byte {
	b = append(b, `,"runs":[`...)
	for k, r := range runs {
		if k > 0 {
			b = append(b, ',')
		}
		label := ""
		if r.AgentName != "" || r.AgentType != "" || r.Compaction {
			label = r.Label("")
		}
		b = append(b, `{"id":`...)
		b = appendJSONString(b, r.ID)
		b = append(b, `,"call":`...)
		b = appendJSONString(b, r.Call)
		b = append(b, `,"label":`...)
		b = appendJSONString(b, label)
		for _, f := range []struct {
			name string
			v    int
		}{{"host", r.Host}, {"start", r.Start}, {"end", r.End}} {
			b = append(b, `,"`+f.name+`":`...)
			b = strconv.AppendInt(b, int64(f.v), 10)
		}
		b = append(b, `,"e":[`...)
		for j, i := range r.Entries {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(i), 10)
		}
		b = append(b, "]}"...)
	}
	return append(b, ']')
}
