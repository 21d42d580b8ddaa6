// Package transcript prepares a session for the exporters: the active path,
// labels, tool results paired with their calls, and header statistics. The
// HTML and Markdown renderers share it so both show the same things.
package transcript

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// Transcript is a session indexed for rendering.
type Transcript struct {
	S *session.Session
	// Conv is the conversation tree, the active path and the branches as
	// info counts them and convert keeps them.
	Conv *convtree.Conversation
	// Leaf is the end of the shown branch: the entry --leaf names, else
	// the last entry of the active path that is conversation (never a
	// bookkeeping record nor a sub-agent run's marker).
	Leaf *session.Entry
	// LeafAt is Leaf's index in S.Entries, -1 when there is none.
	LeafAt int
	Path   []*session.Entry // root to Leaf
	// Tail is the rest of the active path after the shown leaf, when Leaf
	// is the default: the records written after the conversation's last
	// entry (bookkeeping, a run's marker), shown only with AllRecords.
	Tail   []*session.Entry
	Labels map[string]string // entry id -> label (last label entry wins; empty clears)
	// Results maps a tool call id to the first tool-result message that answers it.
	Results map[string]*session.Entry
	// Paired marks result entries shown next to their call, not on their own.
	Paired map[*session.Entry]bool

	// AllRecords shows the records the layout declares bookkeeping
	// (session.IsBookkeeping) as entries of their own; by default they
	// are not shown.
	AllRecords bool

	runs  *[]*Run      // Runs, once computed
	marks map[int]bool // InRun, once computed
}

// New indexes s. leaf picks the branch to show ("" = the active path, to
// the last entry of the main conversation, where the agent resumes); an
// unknown leaf is an error.
func New(s *session.Session, leaf string) (*Transcript, error) {
	t := &Transcript{S: s, Conv: convtree.NewConversation(s.Entries, s.Meta.MessageLinks), Labels: map[string]string{},
		Results: map[string]*session.Entry{}, Paired: map[*session.Entry]bool{}}
	if leaf != "" {
		i := t.Conv.Index(leaf)
		if i < 0 {
			return nil, fmt.Errorf("--leaf %s: no entry with that id", leaf)
		}
		t.Leaf, t.LeafAt, t.Path = s.Entries[i], i, t.Conv.PathTo(i)
	} else {
		t.Leaf, t.LeafAt, t.Path = t.Conv.Shown, t.Conv.ShownAt(), t.Conv.PathTo(t.Conv.ShownAt())
		if full := t.Conv.Path(); len(full) > len(t.Path) {
			t.Tail = full[len(t.Path):]
		}
	}
	calls := map[string]bool{}
	for _, e := range s.Entries {
		if KindOf(e) == session.KindLabel {
			if e.Label.Label == "" {
				delete(t.Labels, e.Label.TargetID)
			} else {
				t.Labels[e.Label.TargetID] = e.Label.Label
			}
		}
		if m := e.Message; m != nil {
			for _, b := range m.Content {
				if b.Type == session.BlockToolCall && b.ToolCallID != "" {
					calls[b.ToolCallID] = true
				}
			}
			if m.Role == session.RoleTool && m.ToolCallID != "" && t.Results[m.ToolCallID] == nil {
				t.Results[m.ToolCallID] = e
			}
		}
	}
	for id, e := range t.Results {
		if calls[id] {
			t.Paired[e] = true
		} else {
			delete(t.Results, id)
		}
	}
	return t, nil
}

// Shown is the indexes of the entries of t's path shown as messages of
// their own, in order: visible ones, without the subagent cards of runs
// shown inside their call (HostedRuns; Orphans are the rest); with
// AllRecords, the Tail's too.
func (t *Transcript) Shown() []int {
	path := t.Path
	if t.AllRecords && len(t.Tail) > 0 {
		path = append(path[:len(path):len(path)], t.Tail...)
	}
	at := make(map[*session.Entry]int, len(path))
	for _, e := range path {
		at[e] = -1
	}
	for i, e := range t.S.Entries {
		if _, ok := at[e]; ok {
			at[e] = i
		}
	}
	out := make([]int, 0, len(path))
	for _, e := range path {
		if i := at[e]; i >= 0 && t.Visible(e) && !t.InRun(i) {
			out = append(out, i)
		}
	}
	return out
}

// Orphans are the runs whose call no entry holds.
func (t *Transcript) Orphans() []*Run {
	var out []*Run
	for _, r := range t.Runs() {
		if !r.Hosted() {
			out = append(out, r)
		}
	}
	return out
}

// Visible reports whether an entry is shown as a message of its own (labels
// show as tags on their target; paired results show inside their call;
// bookkeeping records only with AllRecords).
func (t *Transcript) Visible(e *session.Entry) bool {
	return e.Kind != session.KindLabel && !t.Paired[e] && (t.AllRecords || !session.IsBookkeeping(e))
}

// Stats are the header numbers.
type Stats struct {
	Roles      map[string]int
	ToolCalls  int
	Entries    int
	Branches   int
	Models     []string
	Input      int64
	Output     int64
	CacheRead  int64
	CacheWrite int64
	Cost       float64
	// HasCost: some message recorded its cost. Without it Cost is not 0
	// but unknown, and is shown as such (Claude Code and Codex record
	// tokens, not cost).
	HasCost bool
	Turns   []Turn // per assistant message on the active path
}

// Turn is one point of the header chart.
type Turn struct {
	ID      string  // the assistant message's entry id
	Index   int     // its index in S.Entries
	Context int64   // tokens the model saw: input + cache read + cache write
	Cost    float64 // cumulative cost up to this turn
	// Costed: a cost was recorded up to this turn (else Cost is unknown)
	Costed bool
	// NoUsage marks a turn that recorded no token use (an aborted one): a
	// gap in the chart, not a fall to zero that would look like a compaction.
	NoUsage bool
}

// Stats counts the whole session (every branch) and charts the active path.
func (t *Transcript) Stats() Stats {
	st := Stats{Roles: map[string]int{}, Entries: len(t.S.Entries), Branches: t.Conv.Branches}
	models := map[string]bool{}
	addModel := func(p, m string) {
		if m == "" {
			return
		}
		if p != "" {
			m = p + "/" + m
		}
		models[m] = true
	}
	addModel(t.S.Meta.Provider, t.S.Meta.Model)
	for _, e := range t.S.Entries {
		if e.ModelChange != nil {
			addModel(e.ModelChange.Provider, e.ModelChange.ModelID)
		}
		m := e.Message
		if m == nil {
			continue
		}
		st.Roles[string(m.Role)]++
		addModel(m.Provider, m.Model)
		for _, b := range m.Content {
			if b.Type == session.BlockToolCall {
				st.ToolCalls++
			}
		}
		if u := m.Usage; u != nil {
			st.Input += u.Input
			st.Output += u.Output
			st.CacheRead += u.CacheRead
			st.CacheWrite += u.CacheWrite
			if u.Cost != nil {
				st.Cost += u.Cost.Total
				st.HasCost = true
			}
		}
	}
	var cum float64
	costed := false
	at := map[*session.Entry]int{} // the assistant messages of the path
	for _, e := range t.Path {
		if m := e.Message; m != nil && m.Role == session.RoleAssistant {
			at[e] = -1
		}
	}
	for i, e := range t.S.Entries {
		if _, ok := at[e]; ok {
			at[e] = i
		}
	}
	for _, e := range t.Path {
		m := e.Message
		if m == nil || m.Role != session.RoleAssistant {
			continue
		}
		tu := Turn{ID: e.ID, Index: at[e], NoUsage: true}
		if u := m.Usage; u != nil {
			if u.Cost != nil {
				cum += u.Cost.Total
				costed = true
			}
			tu.Context = u.Input + u.CacheRead + u.CacheWrite
			tu.NoUsage = tu.Context == 0 && u.Output == 0
		}
		tu.Cost, tu.Costed = cum, costed
		st.Turns = append(st.Turns, tu)
	}
	for m := range models {
		st.Models = append(st.Models, m)
	}
	sort.Strings(st.Models)
	return st
}

// RoleNames lists the roles counted in st, sorted, for stable output.
func (st Stats) RoleNames() []string {
	var out []string
	for r := range st.Roles {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// Title is the session's title, else the last title change, else the start
// of the first user message, else "Session <id>".
func (t *Transcript) Title() string {
	if t.S.Meta.Title != "" {
		return t.S.Meta.Title
	}
	title := ""
	for _, e := range t.S.Entries {
		if e.Kind == session.KindSessionInfo && e.Title != "" {
			title = e.Title
		}
	}
	if title != "" {
		return title
	}
	for _, e := range t.S.Entries {
		if m := e.Message; m != nil && m.Role == session.RoleUser {
			// the first real prompt, not what the agent put in a user message
			if s := strings.Join(strings.Fields(PromptText(m.Text())), " "); s != "" {
				if r := []rune(s); len(r) > 80 {
					s = string(r[:80]) + "…"
				}
				return s
			}
		}
	}
	return "Session " + t.S.Meta.ID
}

// KindOf is e.Kind, or KindOther when the field that kind needs is missing,
// so a renderer never dereferences a nil payload.
func KindOf(e *session.Entry) session.Kind {
	ok := true
	switch e.Kind {
	case session.KindMessage, session.KindCustomMessage:
		ok = e.Message != nil
	case session.KindCompaction:
		ok = e.Compaction != nil
	case session.KindBranchSummary:
		ok = e.BranchSummary != nil
	case session.KindLabel:
		ok = e.Label != nil
	case session.KindModelChange:
		ok = e.ModelChange != nil
	case session.KindCustom:
		ok = e.Custom != nil
	case session.KindSubagent, session.KindSubagentEnd:
		ok = e.Subagent != nil
	}
	if !ok {
		return session.KindOther
	}
	return e.Kind
}
