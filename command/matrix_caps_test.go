package command

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// A conversion's loss report, predicted from the source session (the model
// its reader gives, which `convert --to model` dumps) and the target's
// declaration (format.Caps) alone, with no table per sample:
//
//   - exact, kind, action and count: what the declaration decides, which
//     convert.Adapt counts: the structure (active path, side runs, file
//     snapshots), whole entries of the kinds a layout lacks, roles, content
//     blocks and signatures, the session's and each message's data the
//     layout has no slot for, and the members of the source the model has
//     none for (Extras);
//   - bounded: what the writer counts because it depends on how it spells
//     its layout (where a compaction's first kept entry ends up, a fork's
//     link, a tool call on a role that carries none): such a kind may be
//     reported only where the source holds what it is about (placed).

// predicted is a prediction: exact counts by "kind action", and the
// writer's kinds the source allows.
type predicted struct {
	exact map[string]int
	may   map[string]bool
}

func capsOf(t *testing.T, layout string) format.Caps {
	t.Helper()
	f, err := registry.Lookup(layout)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := format.CapsOf(f)
	if !ok {
		t.Fatalf("%s declares no capabilities", layout)
	}
	return c
}

// predict is what converting the sessions to a layout declaring c loses;
// home says whether they are written into the layout's home (a directory
// it keeps an index in), where a title kept only there (TitleInHome) is
// kept, and sub-agent runs kept only there (SidechainsInHome). A session of the layout's own loses nothing else but a link to a
// parent that is not converted with it.
func predict(sessions []*session.Session, c format.Caps, home bool) predicted {
	if !home {
		c = c.InFile() // sub-agent runs kept only in the home are not kept
	}
	p := predicted{exact: map[string]int{}, may: map[string]bool{}}
	for _, s := range sessions {
		if s.Meta.Title != "" && c.TitleInHome && !home {
			p.add(loss.SessionTitle, loss.Dropped, 1)
		}
		if !c.Owns(s.Meta.Origin) {
			if c.ModelRequired && namesNoModel(s) {
				p.add(loss.SessionModel, loss.Converted, 1)
			}
			p.session(s, c)
		} else if s.Meta.Parent != nil {
			p.allow(loss.ParentLink)
		}
	}
	return p
}

// namesNoModel reports whether a session with messages names no model
// anywhere: not in its meta, a model change or any message.
func namesNoModel(s *session.Session) bool {
	if s.Meta.Model != "" {
		return false
	}
	messages := false
	for _, e := range s.Entries {
		switch {
		case e.Kind == session.KindModelChange && e.ModelChange != nil && e.ModelChange.ModelID != "":
			return false
		case e.Message != nil:
			if e.Message.Model != "" {
				return false
			}
			messages = true
		}
	}
	return messages
}

func (p predicted) add(k loss.Kind, a loss.Action, n int) {
	if n > 0 {
		p.exact[string(k)+" "+string(a)] += n
	}
}

// allow lets the writer report kinds ks, with any action.
func (p predicted) allow(ks ...loss.Kind) {
	for _, k := range ks {
		p.may[string(k)] = true
	}
}

// allowAs lets the writer report kind k with action a only.
func (p predicted) allowAs(k loss.Kind, a loss.Action) { p.may[string(k)+" "+string(a)] = true }

func (p predicted) session(s *session.Session, c format.Caps) {
	p.meta(&s.Meta, c)
	kept := s.Entries
	if c.Linear {
		kept = p.path(s.Entries, s.Meta.MessageLinks, c)
	}
	untied := map[string]bool{} // sub-agent runs no tool call started
	for _, e := range kept {
		if e.Sidechain != "" && !c.Sidechains && !c.SidechainsInHome {
			p.add(loss.Sidechain, loss.Dropped, 1)
			continue
		}
		// ash opens a sub-agent run only from the tool call that started
		// it: a run no call started is left out whole (ash's untied.go).
		if slices.Contains(c.Own, "ash") && e.Subagent != nil && e.Kind == session.KindSubagent && e.Subagent.ParentToolCallID == "" {
			untied[e.Subagent.ID] = true
		}
		if untied[e.Sidechain] || (e.Kind == session.KindSubagent || e.Kind == session.KindSubagentEnd) && e.Subagent != nil && untied[e.Subagent.ID] {
			p.add(loss.Entry(e), loss.Dropped, 1)
			continue
		}
		if e = p.entry(e, c); e != nil {
			p.content(e, c)
		}
	}
}

// tiedRuns is kept without the runs a linear target writing runs inline
// drops: those started by a tool call it does not keep (off the path).
func (p predicted) tiedRuns(kept []*session.Entry) []*session.Entry {
	calls, untied := map[string]bool{}, map[string]bool{}
	for _, e := range kept {
		if e.Sidechain == "" && e.Message != nil {
			for _, b := range e.Message.Content {
				if b.Type == session.BlockToolCall {
					calls[b.ToolCallID] = true
				}
			}
		}
		if e.Kind == session.KindSubagent && e.Subagent != nil && e.Subagent.ParentToolCallID != "" && !calls[e.Subagent.ParentToolCallID] {
			untied[e.Subagent.ID] = true
		}
	}
	out := kept[:0:0]
	for _, e := range kept {
		switch {
		case untied[e.Sidechain]:
			p.add(loss.Sidechain, loss.Dropped, 1)
		case (e.Kind == session.KindSubagent || e.Kind == session.KindSubagentEnd) && e.Subagent != nil && untied[e.Subagent.ID]:
		default:
			out = append(out, e)
		}
	}
	return out
}

// path is the active path of a linear target; what is off it is counted.
func (p predicted) path(entries []*session.Entry, messageLinks bool, c format.Caps) []*session.Entry {
	conv := convtree.NewConversation(entries, messageLinks)
	runsApart := c.Sidechains || c.SidechainsInHome
	var kept []*session.Entry
	for i, e := range entries {
		mark := e.Kind == session.KindSubagent || e.Kind == session.KindSubagentEnd
		switch {
		case conv.OnPath(i), runsApart && e.Sidechain != "", c.Sidechains && mark:
			// a layout keeping runs besides the path keeps them whole;
			// one writing them inline, with the entries that start and
			// end them
			kept = append(kept, e)
		case e.Sidechain != "":
			p.add(loss.Sidechain, loss.Dropped, 1)
		default:
			p.add(loss.OffPath, loss.Dropped, 1)
		}
	}
	if c.Sidechains {
		kept = p.tiedRuns(kept)
	}
	if conv.Branches > 1 {
		p.add(loss.Branch, loss.Flattened, conv.Branches-1)
	}
	return kept
}

func (p predicted) meta(m *session.Meta, c format.Caps) {
	has := func(k loss.Kind, lacks bool) {
		if lacks {
			p.add(k, loss.Dropped, 1)
		}
	}
	if !c.Checkpoints {
		p.add(loss.Checkpoint, loss.Dropped, len(m.Checkpoints))
	}
	has(loss.SessionTitle, m.Title != "" && !c.Title && !c.TitleInHome)
	has(loss.SessionModel, m.Model != "" && !c.SessionModel)
	has(loss.Provider, m.Provider != "" && !c.Provider && m.Provider != c.FixedProvider)
	has(loss.ThinkingLevel, m.ThinkingLevel != "" && !c.ThinkingLevel)
	p.add(loss.SessionField, loss.Dropped, m.Unknown())
	if m.Parent != nil {
		p.allow(loss.ParentLink, loss.ParentPath)
	}
	if len(m.Children) > 0 {
		p.allow(loss.ChildSession)
	}
}

// entry is e as the target keeps it (its role and blocks), nil when the
// declaration drops it.
func (p predicted) entry(e *session.Entry, c format.Caps) *session.Entry {
	switch e.Kind {
	case session.KindCompaction:
		switch {
		case c.ConvertsKind(e.Kind):
			p.add(loss.Compaction, loss.Converted, 1)
		case !c.HoldsKind(e.Kind):
			p.add(loss.Entry(e), loss.Dropped, 1)
			return e // its fields are counted; the writer drops it
		}
		p.allow(loss.FirstKept, loss.CompactionTokensAfter, loss.CompactionDetails, loss.CompactionBranch)
		return e
	case session.KindCustomMessage:
		p.allow(loss.CustomMessage, loss.Entry(e))
		return e
	case session.KindMessage:
	default:
		switch {
		case c.ConvertsKind(e.Kind):
			p.add(loss.Entry(e), loss.Converted, 1)
		case !c.HoldsKind(e.Kind):
			p.add(loss.Entry(e), loss.Dropped, 1)
			return nil
		}
		return e
	}
	if e.Message == nil {
		return e
	}
	m, ok := p.role(e.Message, c)
	if !ok {
		return nil
	}
	out := *e
	out.Message = p.blocks(m, c)
	return &out
}

// role is m with the role the target writes it with, false when dropped.
func (p predicted) role(m *session.Message, c format.Caps) (*session.Message, bool) {
	r := m.Role
	if alias, ok := c.Alias[r]; ok {
		p.add(loss.Role(r), loss.Converted, 1)
		cm := *m
		cm.Role = alias
		return &cm, true
	}
	if c.HoldsRole(r) || c.Fallback == "" {
		return m, true
	}
	if c.Fallback == format.FallbackDrop {
		p.add(loss.Role(r), loss.Dropped, 1)
		return nil, false
	}
	p.add(loss.Role(r), loss.Converted, 1)
	return spell.AsUser(m), true
}

// blocks is m with the blocks the target keeps, their signatures counted.
func (p predicted) blocks(m *session.Message, c format.Caps) *session.Message {
	cm := *m
	cm.Content = nil
	for _, b := range m.Content {
		if k, n := b.Opaque(); n > 0 {
			p.add(loss.Kind(k), loss.Dropped, n)
		}
		kept := c.HoldsBlock(b.Type) || c.ConvertsBlock(b.Type)
		if b.Type == session.BlockImage && c.HoldsBlock(b.Type) {
			kept = c.ImagesFor(m.Role)
		}
		if !kept {
			p.add(loss.Block(b.Type), loss.Dropped, 1)
			continue
		}
		if b.Type == session.BlockThinking && c.ThinkingOwnOnly {
			p.add(loss.Block(b.Type), loss.Dropped, 1)
			p.add(loss.BlockField, loss.Dropped, b.Unknown()) // counted before the writer leaves it out
			continue
		}
		if b.Type == session.BlockToolCall && c.CallsNeedResults {
			p.allowAs(loss.Block(b.Type), loss.Converted) // when no result answers it
		}
		signed := b.Signature != "" || b.Type == session.BlockThinking && b.Redacted
		switch {
		case signed && b.Type == session.BlockThinking && !c.KeepsSignature(b.Type):
			p.add(loss.Signature, loss.Dropped, 1)
		case signed && !c.KeepsSignature(b.Type):
			p.add(loss.SignatureOf(b.Type), loss.Dropped, 1)
		}
		cm.Content = append(cm.Content, b)
	}
	return &cm
}

// content counts the data of a kept entry the target has no slot for, and
// allows what its writer may lose of the blocks it keeps.
func (p predicted) content(e *session.Entry, c format.Caps) {
	p.add(loss.EntryField, loss.Dropped, e.Unknown())
	m := e.Message
	if m == nil {
		return
	}
	has := func(k loss.Kind, lacks bool) {
		if lacks {
			p.add(k, loss.Dropped, 1)
		}
	}
	if u := m.Usage; u != nil {
		cost := u.Cost != nil && u.Cost.Input+u.Cost.Output+u.Cost.CacheRead+u.Cost.CacheWrite+u.Cost.Total != 0
		has(loss.Usage, !c.Usage || !c.Cost && cost)
		has(loss.ReasoningTokens, c.Usage && !c.ReasoningTokens && u.Reasoning != 0)
		if c.Usage && c.CacheWriteAsInput && u.CacheWrite != 0 {
			p.add(loss.Usage, loss.Converted, 1)
		}
	}
	has(loss.MessageModel, !c.MessageModel && (m.Model != "" || m.Provider != ""))
	has(loss.MessageAPI, m.API != "" && !c.MessageAPI || c.MessageModel && m.Provider != "" && !c.MessageProvider)
	has(loss.StopReason, m.StopReason != "" && !c.StopReason || m.Error != "" && !c.MessageError)
	has(loss.MessageDetails, len(m.Details) > 0 && string(m.Details) != "null" && !c.MessageDetails)
	has(loss.MessageAuthor, (m.AuthorID != "" || m.AuthorName != "") && !c.MessageAuthor)
	has(loss.MessageTokens, m.TokenCount != nil && !c.MessageTokens)
	has(loss.IsError, m.IsError && !c.IsError)
	p.add(loss.MessageField, loss.Dropped, len(m.Extra))
	if m.StopReason != "" || m.Error != "" {
		// a reason the target cannot spell
		p.allowAs(loss.StopReason, loss.Converted)
		p.allowAs(loss.StopReason, loss.Flattened)
	}
	texts := 0
	for _, b := range m.Content {
		has(loss.IsError, b.Type == session.BlockToolResult && b.IsError && !c.IsError)
		p.add(loss.BlockField, loss.Dropped, b.Unknown())
		switch b.Type {
		case session.BlockText:
			texts++
		case session.BlockImage, session.BlockFile:
			// the writer's spelling of images and files: inline data,
			// a name, images only
			p.allow(loss.Block(b.Type), loss.WithoutData(b.Type), loss.FileName)
		case session.BlockToolCall:
			if !c.CallsOn(m.Role) {
				p.allow(loss.ToolCall, loss.Block(b.Type), loss.ToolResult)
			}
		case session.BlockToolResult:
			p.allow(loss.ToolResult)
		}
	}
	if c.LastText && m.Role == session.RoleAssistant && texts > 1 {
		p.add(loss.Block(session.BlockText), loss.Dropped, texts-1)
	}
	if m.Role == session.RoleTool {
		p.allow(loss.ToolResult) // a result whose call the target did not write
		if !c.ImagesFor(m.Role) {
			p.allow(loss.Block(session.BlockImage))
		}
	}
}

// check reports every disagreement of a loss report with the prediction.
func (p predicted) check(t *testing.T, to string, items []loss.Item) {
	t.Helper()
	for _, d := range p.disagree(to, items) {
		t.Error(d)
	}
}

// disagree compares a loss report with the prediction: the exact kinds
// with their counts, and every other kind reported must be one the source
// allows.
func (p predicted) disagree(to string, items []loss.Item) []string {
	var out []string
	got := map[string]int{}
	for _, it := range items {
		k := string(it.Kind) + " " + string(it.Action)
		if _, exact := p.exact[k]; exact || decidedKind(it.Kind) {
			got[k] += it.Count
			continue
		}
		if !p.may[string(it.Kind)] && !p.may[k] {
			out = append(out, fmt.Sprintf("%s reported %d %s %s (%s), which nothing in the source allows", to, it.Count, it.Kind, it.Action, it.Reason))
		}
	}
	if d := cmp.Diff(p.exact, got); d != "" {
		out = append(out, fmt.Sprintf("losses (-predicted by %s's capabilities +reported):\n%s", to, d))
	}
	return out
}

// decidedKind reports whether the declaration alone decides a loss of
// kind k, so a report of it that was not predicted is an error rather
// than the writer's: what is left to writers is listed in writerKinds.
func decidedKind(k loss.Kind) bool {
	if writerKinds[k] {
		return false
	}
	s := string(k)
	return !strings.HasSuffix(s, "-without-data") && k != loss.Block(session.BlockFile) && k != loss.Block(session.BlockImage) &&
		k != loss.Block(session.BlockToolCall) && k != loss.Block(session.BlockText) && k != loss.Entry(&session.Entry{Kind: session.KindCustomMessage})
}

// writerKinds are the kinds a writer counts, as it spells its layout.
var writerKinds = map[loss.Kind]bool{
	loss.FirstKept: true, loss.CompactionTokensAfter: true, loss.CompactionDetails: true, loss.CompactionBranch: true,
	loss.ParentLink: true, loss.ParentPath: true, loss.ChildSession: true, loss.CustomMessage: true,
	loss.ToolCall: true, loss.ToolResult: true, loss.FileName: true, loss.StopReason: true,
}

// TestMatrix: every sample to every writable layout and back, once (see
// roundTrip): each conversion reports exactly what its target's
// declaration predicts from its source, the target holds what it declares,
// and what both layouts hold survives the round trip.
func TestMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("converts every sample to every layout and back")
	}
	eachPair(t, func(t *testing.T, s sample, to string) {
		roundTrip(t, s.source(t), s.layout, to)
	})
}

// checkHolds checks a declaration against what the output holds, so that
// the losses counted from it are true: data of the source the target
// declares it keeps is in the output, and data it declares it has no slot
// for is in none of the output's sessions (main lines; compared by how many
// sessions and messages carry each).
func checkHolds(t *testing.T, orig, out []*session.Session, c format.Caps, home bool) {
	t.Helper()
	if !home {
		c = c.InFile()
	}
	var foreign []*session.Session
	for _, s := range orig {
		if !c.Owns(s.Meta.Origin) {
			foreign = append(foreign, kept(s, c))
		}
	}
	if len(foreign) == 0 {
		return
	}
	src, got := carried(foreign, c), carried(out, c)
	for _, f := range heldFields {
		keeps := f.keeps(c) || f.name == "title" && c.TitleInHome && home
		switch {
		case keeps && src[f.name] > 0 && got[f.name] == 0:
			t.Errorf("the declaration keeps %s, but none of the %d in the source is in the output", f.name, src[f.name])
		case !keeps && src[f.name] > 0 && got[f.name] > 0:
			t.Errorf("the declaration has no slot for %s, but the output has %d (the source %d)", f.name, got[f.name], src[f.name])
		}
	}
}

// heldField is one datum a declaration says a layout keeps or not.
type heldField struct {
	name  string
	keeps func(format.Caps) bool
}

var heldFields = []heldField{
	{"title", func(c format.Caps) bool { return c.Title }},
	{"session model", func(c format.Caps) bool { return c.SessionModel }},
	{"session provider", func(c format.Caps) bool { return c.Provider }},
	{"thinking level", func(c format.Caps) bool { return c.ThinkingLevel }},
	{"usage", func(c format.Caps) bool { return c.Usage }},
	{"cost", func(c format.Caps) bool { return c.Cost }},
	{"reasoning tokens", func(c format.Caps) bool { return c.ReasoningTokens }},
	{"message model", func(c format.Caps) bool { return c.MessageModel }},
	{"message provider", func(c format.Caps) bool { return c.MessageProvider }},
	{"API", func(c format.Caps) bool { return c.MessageAPI }},
	{"stop reason", func(c format.Caps) bool { return c.StopReason }},
	{"error text", func(c format.Caps) bool { return c.MessageError }},
	{"details", func(c format.Caps) bool { return c.MessageDetails }},
	{"author", func(c format.Caps) bool { return c.MessageAuthor }},
	{"token count", func(c format.Caps) bool { return c.MessageTokens }},
	{"error flag", func(c format.Caps) bool { return c.IsError }},
}

// kept is s with the entries the declaration keeps (its active path, for a
// linear target), which the output is compared with.
func kept(s *session.Session, c format.Caps) *session.Session {
	p := predicted{exact: map[string]int{}, may: map[string]bool{}}
	entries := s.Entries
	if c.Linear {
		entries = p.path(entries, s.Meta.MessageLinks, c)
	}
	out := *s
	out.Entries = nil
	for _, e := range entries {
		if e.Sidechain == "" || c.Sidechains || c.SidechainsInHome {
			if e = p.entry(e, c); e != nil {
				out.Entries = append(out.Entries, e)
			}
		}
	}
	return &out
}

// carried counts the sessions and messages of the main lines that carry
// each of heldFields. A title a layout keeps as an entry (Claude Code's)
// counts; a provider the target names for every foreign session does not.
func carried(ss []*session.Session, c format.Caps) map[string]int {
	n := map[string]int{}
	inc := func(k string, b bool) {
		if b {
			n[k]++
		}
	}
	for _, s := range ss {
		m := s.Meta
		title := m.Title != ""
		for _, e := range s.Entries {
			title = title || e.Kind == session.KindSessionInfo && e.Title != ""
		}
		inc("title", title)
		inc("session model", m.Model != "")
		inc("session provider", m.Provider != "" && m.Provider != c.FixedProvider)
		inc("thinking level", m.ThinkingLevel != "")
		for _, e := range s.Entries {
			if e.Sidechain != "" || e.Message == nil {
				continue
			}
			msg := e.Message
			if u := msg.Usage; u != nil {
				inc("usage", u.Input|u.Output|u.CacheRead|u.CacheWrite != 0)
				inc("cost", u.Cost != nil && u.Cost.Total != 0)
				inc("reasoning tokens", u.Reasoning != 0)
			}
			inc("message model", msg.Model != "")
			inc("message provider", msg.Provider != "")
			inc("API", msg.API != "")
			inc("stop reason", msg.StopReason != "")
			inc("error text", msg.Error != "")
			inc("details", len(msg.Details) > 0 && string(msg.Details) != "null")
			inc("author", msg.AuthorID != "" || msg.AuthorName != "")
			inc("token count", msg.TokenCount != nil)
			flag := msg.IsError
			for _, b := range msg.Content {
				flag = flag || b.Type == session.BlockToolResult && b.IsError
			}
			inc("error flag", flag)
		}
	}
	return n
}

// TestPredictCatchesBadDeclaration: a declaration that claims a slot its
// writer does not have (or lacks one it has) is caught: the prediction from
// the wrong declaration disagrees with the report.
func TestPredictCatchesBadDeclaration(t *testing.T) {
	s := &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: "elsewhere"}, Title: "a title", Model: "m"},
		Entries: []*session.Entry{{Kind: session.KindMessage, ID: "e1", Message: &session.Message{Role: session.RoleAssistant,
			Model: "m", Usage: &session.Usage{Input: 1}, StopReason: "stop", Content: []session.Block{{Type: session.BlockText, Text: "hi"}}}}}}
	for _, to := range matrixTargets {
		t.Run(to, func(t *testing.T) {
			c := capsOf(t, to)
			lost := &loss.Counter{}
			r, err := convert.Adapt(&session.SliceReader{S: s}, nil, c, to, lost)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := session.ReadAll(r); err != nil {
				t.Fatal(err)
			}
			predict([]*session.Session{s}, c, true).check(t, to, lost.Items()) // no writer: the title a home keeps is kept
			wrong := c
			wrong.Usage, wrong.Title, wrong.StopReason = !c.Usage, !c.Title, !c.StopReason
			if len(predict([]*session.Session{s}, wrong, true).disagree(to, lost.Items())) == 0 {
				t.Errorf("a declaration with usage, title and stop reason flipped predicts %s's report too", to)
			}
		})
	}
}

// isDir reports whether a conversion's output is a directory: for a layout
// with a home, written into one.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
