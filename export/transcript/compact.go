package transcript

import (
	"strings"
	"time"

	"github.com/sesstool/sesstool/session"
)

// Compact keeps the same skeleton as Skeleton, in a form the collector
// need not walk, for an export that holds it while the whole session
// streams past (the page). A skeleton of separate Entries and Messages
// was most of what a page export kept live (30 MB for the 100 MB
// benchmark session, a kilobyte an entry), and every collection walked
// it: the live heap, and so the collector's work and how often it ran,
// grew with the session. Here a plain message entry (the kind nearly
// every entry is) is a row of numbers: its ids are offsets into one byte
// arena and its names indexes into one table, so the rows hold no
// pointers. Any other entry is kept by a Skeleton as it was. Entries
// builds the Skeleton's entries from the rows, once, at the end; they are
// equal to what Skeleton would have kept (TestCompactSameAsSkeleton).
type Compact struct {
	sk     Skeleton // the entries not kept as rows, and the title state
	rows   []row
	times  []time.Time // a row's time (a time holds a pointer: kept apart)
	usages []usage
	calls  []call
	arena  []byte // ids, one after the other
	names  []string
	index  map[string]uint32
	last   ref // the last row's id: a parent is most often the entry before
}

// maxArena bounds the arena and the tables a row indexes (uint32 and int32
// offsets), with room for the largest entry's ids; past it (gigabytes of
// ids) entries are kept as Skeleton keeps them.
const maxArena = 1 << 30

// ref is a string in the arena.
type ref struct{ off, n uint32 }

// row is one entry: a plain message, or (full >= 0) the index of an entry
// the Skeleton kept.
type row struct {
	full                         int32
	id, parent, toolCallID       ref
	line                         int64
	kind, typ, origin, sidechain uint32 // names
	role, provider, model        uint32
	usage                        int32 // index in usages, -1 for none
	callAt, nCalls               int32 // in calls
}

type usage struct {
	input, output, cacheRead, cacheWrite, reasoning int64
	total                                           int64
	hasTotal, hasCost                               bool
	cost                                            float64
}

type call struct {
	id   ref
	name uint32
}

// name returns the index of s in the table.
func (c *Compact) name(s string) uint32 {
	if i, ok := c.index[s]; ok {
		return i
	}
	if c.index == nil {
		c.index = map[string]uint32{}
	}
	i := uint32(len(c.names))
	s = strings.Clone(s)
	c.names = append(c.names, s)
	c.index[s] = i
	return i
}

func (c *Compact) str(s string) ref {
	r := ref{uint32(len(c.arena)), uint32(len(s))}
	c.arena = append(c.arena, s...)
	return r
}

// Results keeps each tool result's call id (Skeleton.Results).
func (c *Compact) Results() { c.sk.Results = true }

// Len is the number of entries added.
func (c *Compact) Len() int { return len(c.rows) }

// Add keeps the skeleton of the next entry.
func (c *Compact) Add(e *session.Entry) {
	if !c.plain(e) {
		c.sk.Add(e)
		c.rows = append(c.rows, row{full: int32(len(c.sk.Entries) - 1)})
		c.times = append(c.times, time.Time{})
		c.last = ref{}
		if s := c.sk.Entries[len(c.sk.Entries)-1]; s.ID != "" {
			c.last = c.str(s.ID)
		}
		return
	}
	m := e.Message
	r := row{full: -1, line: int64(e.Line), kind: c.name(string(e.Kind)), typ: c.name(e.Type), origin: c.name(e.Origin),
		sidechain: c.name(e.Sidechain), role: c.name(string(m.Role)), provider: c.name(m.Provider), model: c.name(m.Model), usage: -1}
	r.id = c.str(e.ID)
	if e.ParentID != "" && string(c.arena[c.last.off:c.last.off+c.last.n]) == e.ParentID {
		r.parent = c.last
	} else {
		r.parent = c.str(e.ParentID)
	}
	if c.sk.Results && m.Role == session.RoleTool {
		r.toolCallID = c.str(m.ToolCallID)
	}
	if u := m.Usage; u != nil {
		k := usage{input: u.Input, output: u.Output, cacheRead: u.CacheRead, cacheWrite: u.CacheWrite, reasoning: u.Reasoning}
		if u.Total != nil {
			k.total, k.hasTotal = *u.Total, true
		}
		if u.Cost != nil {
			k.cost, k.hasCost = u.Cost.Total, true
		}
		r.usage = int32(len(c.usages))
		c.usages = append(c.usages, k)
	}
	r.callAt = int32(len(c.calls))
	for _, b := range m.Content {
		if b.Type == session.BlockToolCall {
			c.calls = append(c.calls, call{id: c.str(b.ToolCallID), name: c.name(b.ToolName)})
		}
	}
	r.nCalls = int32(len(c.calls)) - r.callAt
	c.last = r.id
	c.rows = append(c.rows, r)
	c.times = append(c.times, e.Time.T)
}

// plain reports whether e is a message entry and nothing else, whose
// skeleton keeps no text: a row holds all the Skeleton would keep of it.
func (c *Compact) plain(e *session.Entry) bool {
	if len(c.arena) > maxArena || len(c.rows) > maxArena || len(c.calls) > maxArena {
		return false // past what a row's offsets hold: kept whole
	}
	if e.Message == nil || (e.Kind != session.KindMessage && e.Kind != session.KindCustomMessage) {
		return false
	}
	if e.Compaction != nil || e.BranchSummary != nil || e.Label != nil || e.ModelChange != nil || e.ThinkingLevel != nil ||
		e.Title != "" || e.Custom != nil || e.Subagent != nil {
		return false
	}
	if e.Message.Role == session.RoleUser && (!c.sk.title || Injected(e.Message)) {
		return false // the Skeleton keeps its text for the title, or marks it injected
	}
	return true
}

// Entries returns the skeleton of every entry added, in order: what
// Skeleton.Entries would hold. The rows' entries are made in a few large
// allocations.
func (c *Compact) Entries() []*session.Entry {
	arena := string(c.arena)
	str := func(r ref) string { return arena[r.off : r.off+r.n] }
	n, msgs, blocks := 0, 0, len(c.calls)
	for _, r := range c.rows {
		if r.full < 0 {
			n++
			if r.usage >= 0 || r.nCalls > 0 || c.names[r.provider] != "" || c.names[r.model] != "" || r.toolCallID.n > 0 {
				msgs++
			}
		}
	}
	es := make([]session.Entry, 0, n)
	ms := make([]session.Message, 0, msgs)
	us := make([]session.Usage, 0, len(c.usages))
	costs := make([]session.Cost, 0, len(c.usages))
	totals := make([]int64, 0, len(c.usages))
	bs := make([]session.Block, 0, blocks)
	bare := map[session.Role]*session.Message{}
	for _, m := range c.sk.bare {
		bare[m.Role] = m
	}
	out := make([]*session.Entry, len(c.rows))
	for i, r := range c.rows {
		if r.full >= 0 {
			out[i] = c.sk.Entries[r.full]
			continue
		}
		es = append(es, session.Entry{Kind: session.Kind(c.names[r.kind]), Type: c.names[r.typ], ID: str(r.id), ParentID: str(r.parent),
			Time: session.Time{T: c.times[i]}, Sidechain: c.names[r.sidechain]})
		e := &es[len(es)-1]
		out[i] = e
		e.Origin, e.Line = c.names[r.origin], int(r.line)
		k := session.Message{Role: session.Role(c.names[r.role]), Provider: c.names[r.provider], Model: c.names[r.model], ToolCallID: str(r.toolCallID)}
		if r.usage >= 0 {
			u := c.usages[r.usage]
			us = append(us, session.Usage{Input: u.input, Output: u.output, CacheRead: u.cacheRead, CacheWrite: u.cacheWrite, Reasoning: u.reasoning})
			k.Usage = &us[len(us)-1]
			if u.hasTotal {
				totals = append(totals, u.total)
				k.Usage.Total = &totals[len(totals)-1]
			}
			if u.hasCost {
				costs = append(costs, session.Cost{Total: u.cost})
				k.Usage.Cost = &costs[len(costs)-1]
			}
		}
		if r.nCalls > 0 {
			at := len(bs)
			for _, cl := range c.calls[r.callAt : r.callAt+r.nCalls] {
				bs = append(bs, session.Block{Type: session.BlockToolCall, ToolCallID: str(cl.id), ToolName: c.names[cl.name]})
			}
			k.Content = bs[at:len(bs):len(bs)]
		}
		if k.Usage == nil && len(k.Content) == 0 && k.Provider == "" && k.Model == "" && k.ToolCallID == "" {
			if b := bare[k.Role]; b != nil {
				e.Message = b
				continue
			}
			m := k
			bare[k.Role] = &m
			e.Message = &m
			continue
		}
		ms = append(ms, k)
		e.Message = &ms[len(ms)-1]
	}
	return out
}
