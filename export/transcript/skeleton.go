package transcript

import (
	"strings"

	"github.com/sesstool/sesstool/session"
)

// Skeleton keeps what the header, the tree and the path need of each entry
// of a session that is streamed rather than held: no text, no tool input or
// output, no images, no unknown members. A Transcript of the skeleton
// (New) gives the header's numbers, the title, the labels, the active path
// and which result answers which call; an exporter then reads the entries
// again, or as they come, to render them.
type Skeleton struct {
	Entries []*session.Entry
	// Results keeps each tool result's call id, for New to pair results
	// with their calls (a page pairs them as entries stream past instead).
	Results bool
	title   bool // a user message with text has been kept (the title's fallback)
	bare    map[session.Role]*session.Message
	names   map[string]string // types, origins, providers, models, tool names: a few strings for every entry
	lastID  string
}

// name is s, shared with every entry that has the same.
func (p *Skeleton) name(s string) string {
	if s == "" {
		return ""
	}
	if n, ok := p.names[s]; ok {
		return n
	}
	if p.names == nil {
		p.names = map[string]string{}
	}
	n := strings.Clone(s)
	p.names[n] = n
	return n
}

// Add keeps the skeleton of the next entry. The first user message with
// text keeps it, for the title. Every string is copied: a reader's strings
// may share the memory of the whole line they came from, which the
// skeleton must not keep alive.
func (p *Skeleton) Add(e *session.Entry) {
	c := strings.Clone
	// a million tiny entries are a million skeletons: the type and origin
	// are shared, a parent id most often is the id before it, and the
	// time's source text is not shown
	parent := p.lastID
	if e.ParentID != parent {
		parent = c(e.ParentID)
	}
	s := &session.Entry{Kind: e.Kind, Type: p.name(e.Type), ID: c(e.ID), ParentID: parent, Time: session.Time{T: e.Time.T},
		Sidechain: p.name(e.Sidechain), Title: c(e.Title)}
	s.Origin, s.Line = p.name(e.Origin), e.Line
	p.lastID = s.ID
	if e.ThinkingLevel != nil {
		l := c(*e.ThinkingLevel)
		s.ThinkingLevel = &l
	}
	if x := e.Compaction; x != nil {
		s.Compaction = &session.Compaction{FirstKeptID: c(x.FirstKeptID), TokensBefore: x.TokensBefore, TokensAfter: x.TokensAfter, BranchID: c(x.BranchID)}
	}
	if x := e.BranchSummary; x != nil {
		s.BranchSummary = &session.BranchSummary{FromID: c(x.FromID)}
	}
	if x := e.Label; x != nil {
		s.Label = &session.Label{TargetID: c(x.TargetID), Label: c(x.Label)}
	}
	if x := e.ModelChange; x != nil {
		s.ModelChange = &session.ModelChange{Provider: c(x.Provider), ModelID: c(x.ModelID), Role: c(x.Role), Combined: x.Combined}
	}
	if x := e.Custom; x != nil {
		s.Custom = &session.Custom{CustomType: c(x.CustomType)}
	}
	if x := e.Subagent; x != nil {
		// Runs puts the run inside the call that started it and names it
		s.Subagent = &session.Subagent{ID: c(x.ID), ParentToolCallID: c(x.ParentToolCallID), AgentType: c(x.AgentType), AgentName: c(x.AgentName)}
	}
	if m := e.Message; m != nil {
		s.Message = p.message(m)
	}
	p.Entries = append(p.Entries, s)
}

// message is the skeleton of a message: the header counts roles, tool
// calls, models and usage; the tree's links need only the entry.
func (p *Skeleton) message(m *session.Message) *session.Message {
	c := strings.Clone
	k := &session.Message{Role: m.Role, Provider: p.name(m.Provider), Model: p.name(m.Model)}
	if p.Results && m.Role == session.RoleTool {
		k.ToolCallID = c(m.ToolCallID)
	}
	if u := m.Usage; u != nil {
		k.Usage = &session.Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, Reasoning: u.Reasoning, Total: u.Total}
		if u.Cost != nil {
			k.Usage.Cost = &session.Cost{Total: u.Cost.Total}
		}
	}
	keepText := m.Role == session.RoleUser && !p.title
	for _, b := range m.Content {
		switch {
		case b.Type == session.BlockToolCall:
			k.Content = append(k.Content, session.Block{Type: b.Type, ToolCallID: c(b.ToolCallID), ToolName: p.name(b.ToolName)})
		case keepText && b.Type == session.BlockText:
			k.Content = append(k.Content, session.Block{Type: b.Type, Text: c(b.Text)})
		}
	}
	if keepText && PromptText(k.Text()) != "" {
		p.title = true
	}
	if !keepText && Injected(m) {
		// the text is not kept past the title; what Prompts needs of it
		// is that it is no prompt
		k.Content = append(k.Content, session.Block{Type: session.BlockText, Text: injectedMark})
	}
	return p.share(k)
}

// injectedMark stands in a skeleton for the text of an injected user
// message (Injected holds for it).
const injectedMark = "<system-reminder></system-reminder>"

// share returns one Message for every skeleton message that holds nothing
// but its role (most user messages: two thirds of a session), so a
// skeleton entry costs little more than its Entry. The skeleton is only
// read.
func (p *Skeleton) share(k *session.Message) *session.Message {
	if k.Usage != nil || len(k.Content) > 0 || k.Provider != "" || k.Model != "" || k.ToolCallID != "" {
		return k
	}
	if p.bare == nil {
		p.bare = map[session.Role]*session.Message{}
	}
	if m, ok := p.bare[k.Role]; ok {
		return m
	}
	p.bare[k.Role] = k
	return k
}
