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
}

// Hosted reports whether r is shown inside the call that started it.
func (r *Run) Hosted() bool { return r.Host >= 0 }

// Label names the run: its agent's name and type (typ when the run has
// none: the type the call that started it asked for), else its id.
func (r *Run) Label(typ string) string {
	if r.AgentType != "" {
		typ = r.AgentType
	}
	s := r.AgentName
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
	for _, r := range order {
		if len(r.Entries) == 0 || !r.named {
			continue
		}
		if h, ok := calls[r.Call]; ok && r.Call != "" && t.S.Entries[h].Sidechain != r.ID {
			r.Host = h
		}
		out = append(out, r)
	}
	t.runs = &out
	return out
}

// HostedRuns maps a tool call id to the runs shown inside that call.
func (t *Transcript) HostedRuns() map[string][]*Run {
	m := map[string][]*Run{}
	for _, r := range t.Runs() {
		if r.Hosted() {
			m[r.Call] = append(m[r.Call], r)
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
