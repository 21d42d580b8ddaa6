package transcript

import "github.com/sesstool/sesstool/session"

// Run is one sub-agent run (the entries of one Sidechain) and where the
// exporters show it: inside the tool call that started it, matched by the
// call id its subagent entry names (Subagent.ParentToolCallID), or, when
// no entry holds that call, at the end under a heading saying so.
type Run struct {
	named      bool   // a subagent entry names it, or it holds a message
	ID         string // the sidechain
	Call       string // the id of the tool call that started it; "" when none is named
	Host       int    // index of the entry holding that call; -1 when not found
	Start, End int    // index of its subagent and subagent_end entries; -1 when none
	AgentType  string
	AgentName  string
	Entries    []int // its entries, in source order
	// Compaction: the run is the agent's compaction (session.
	// IsCompactionRun), shown inside the compaction it wrote (Host, an
	// entry holding no call of it) when one follows where the run starts.
	Compaction bool
}

// AtEntry reports whether r is shown inside its host entry itself rather
// than inside a call of it: a compaction's run.
func (r *Run) AtEntry() bool { return r.Hosted() && r.Compaction }

// Hosted reports whether r is shown inside the call that started it.
func (r *Run) Hosted() bool { return r.Host >= 0 }

// Label names the run: its agent's name and type (typ when the run has
// none: the type the call that started it asked for), else its id.
func (r *Run) Label(typ string) string {
	if r.AgentType != "" {
		typ = r.AgentType
	}
	s := r.AgentName
	if r.Compaction && s == "" && typ == "" {
		return "compaction"
	}
	if typ != "" && typ != s {
		if s != "" {
			s += " · "
		}
		s += typ
	}
	if s == "" {
		s = r.ID
	}
	return s
}

// Runs lists the sub-agent runs of the session in the order they first
// appear, each with at least one entry (a subagent entry whose run has no
// entries stays a card of its own). A sidechain is a run when a subagent
// entry names it or it holds messages (ash's sub-agent files no
// agent_session names); one that is neither (goat's second copy of the
// conversation, transcript.jsonl) is not. It needs only what a Skeleton
// keeps.
func (t *Transcript) Runs() []*Run {
	if t.runs != nil {
		return *t.runs
	}
	byID := map[string]*Run{}
	var order []*Run
	run := func(id string) *Run {
		r := byID[id]
		if r == nil {
			r = &Run{ID: id, Host: -1, Start: -1, End: -1}
			byID[id] = r
			order = append(order, r)
		}
		return r
	}
	calls := map[string]int{} // call id -> the first entry holding it
	for i, e := range t.S.Entries {
		if e.Sidechain != "" {
			r := run(e.Sidechain)
			r.Entries = append(r.Entries, i)
			r.named = r.named || e.IsMessage()
		}
		if s := e.Subagent; s != nil && s.ID != "" && (e.Kind == session.KindSubagent || e.Kind == session.KindSubagentEnd) {
			r := run(s.ID)
			r.named = true
			if e.Kind == session.KindSubagent && r.Start < 0 {
				r.Start = i
				r.Compaction = session.IsCompactionRun(e)
			} else if e.Kind == session.KindSubagentEnd {
				r.End = i
			}
			if r.Call == "" {
				r.Call = s.ParentToolCallID
			}
			if r.AgentType == "" {
				r.AgentType = s.AgentType
			}
			if r.AgentName == "" {
				r.AgentName = s.AgentName
			}
		}
		if m := e.Message; m != nil {
			for _, b := range m.Content {
				if b.Type == session.BlockToolCall && b.ToolCallID != "" {
					if _, ok := calls[b.ToolCallID]; !ok {
						calls[b.ToolCallID] = i
					}
				}
			}
		}
	}
	out := order[:0]
	taken := map[int]bool{} // compactions already showing a run
	for _, r := range order {
		if len(r.Entries) == 0 || !r.named {
			continue
		}
		if h, ok := calls[r.Call]; ok && r.Call != "" && t.S.Entries[h].Sidechain != r.ID {
			r.Host = h
		} else if r.Compaction {
			if h := t.compactionOf(r, taken); h >= 0 {
				r.Host, taken[h] = h, true
			}
		}
		out = append(out, r)
	}
	t.runs = &out
	return out
}

// compactionOf is the compaction compaction run r wrote: the first
// compaction of the main conversation after the last main entry the run's
// entries hang from (the one the conversation was compacted after), not
// taken by another run; -1 when there is none.
func (t *Transcript) compactionOf(r *Run, taken map[int]bool) int {
	from := -1
	for _, i := range r.Entries {
		if p := t.Conv.Parent(i); p > from && t.S.Entries[p].Sidechain == "" {
			from = p
		}
	}
	if from < 0 {
		return -1
	}
	for i := from + 1; i < len(t.S.Entries); i++ {
		if e := t.S.Entries[i]; e.Sidechain == "" && e.Kind == session.KindCompaction && !taken[i] {
			return i
		}
	}
	return -1
}

// HostedRuns maps a tool call id to the runs shown inside that call.
func (t *Transcript) HostedRuns() map[string][]*Run {
	m := map[string][]*Run{}
	for _, r := range t.Runs() {
		if r.Hosted() && !r.AtEntry() {
			m[r.Call] = append(m[r.Call], r)
		}
	}
	return m
}

// RunsAt maps the index of an entry to the runs shown inside it rather
// than inside a call of it (AtEntry: a compaction's).
func (t *Transcript) RunsAt() map[int][]*Run {
	m := map[int][]*Run{}
	for _, r := range t.Runs() {
		if r.AtEntry() {
			m[r.Host] = append(m[r.Host], r)
		}
	}
	return m
}

// InRun reports whether the entry at index i is a subagent or
// subagent_end entry of a run shown inside its call: the run's block
// says what those cards would.
func (t *Transcript) InRun(i int) bool {
	if t.marks == nil {
		t.marks = map[int]bool{}
		for _, r := range t.Runs() {
			if r.Hosted() {
				for _, k := range []int{r.Start, r.End} {
					if k >= 0 {
						t.marks[k] = true
					}
				}
			}
		}
	}
	return t.marks[i]
}
