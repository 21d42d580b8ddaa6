package convert

import (
	"errors"
	"fmt"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// Adapt reshapes a session from another layout for the layout that
// declares to, once, before its writer sees it, and counts in lost what
// that drops, by the declaration; layout names the target in the reasons.
//   - A session of one of the target's own origins passes through untouched,
//     so converting a layout to itself stays byte-identical.
//   - A linear target gets the active path (convtree.PathIndex): the branches are
//     flattened, entries off the path dropped, and the sub-agent runs unless
//     the target keeps them besides the path (keepsRuns). The path is
//     known once the last entry has been read: with reopen the session is
//     read twice (ids and links first), so memory stays flat; without, it is
//     held.
//   - A tree target keeps the active path: the leaf is the last main entry
//     (convtree.PathIndex), so when the target drops the entries that end the path
//     (a pi label after another branch, on ash), the last entry it keeps of
//     the path is written last (see tree).
//   - A target without sub-agent runs loses them, one without file
//     snapshots the session's checkpoints.
//   - An entry of a kind the target neither holds nor converts is dropped,
//     and what hung from it hangs from its parent instead.
//   - A message of a role the target lacks takes the role it holds in its
//     place (Alias), becomes a user message (FallbackUser, AsUser) or is
//     dropped (FallbackDrop); the content blocks the target neither holds
//     (images: for that role) nor converts are dropped.
//   - What the target keeps of the session and of each entry is counted
//     against its declaration: the session and message data it has no slot
//     for (usage, models, stop reasons, ...) and the source's members the
//     model has none for (content.go). Its writer counts only what depends
//     on how it spells its layout.
//
// Where the target declares it, a tool call with no result is answered
// (adapt_results.go) and an assistant message among a turn's results is
// joined to the turn (adapt_join.go).
//
// Compactions and extension messages are placed by the writer, since where
// one goes depends on what was written before it; what the target's
// declaration says becomes of them is done here (adapt_*.go), so that a
// writer counts nothing.
func Adapt(r session.Reader, reopen func() (session.Reader, error), to format.Caps, layout string, lost *loss.Counter) (session.Reader, error) {
	if _, done := r.(*adapted); done {
		return r, nil
	}
	titleHomeOnly(r.Meta(), to, layout, lost) // a single file holds no title, of its own sessions either
	if to.Owns(r.Meta().Origin) {
		return r, nil
	}
	a := &adapted{meta: metaTimes(r.Meta(), to.TimesAfter1970, lost), to: to, layout: layout, lost: lost, last1: -1}
	a.clock.Start(a.meta.Created)
	countMeta(a.meta, to, layout, lost)
	countLinks(a.meta, to, lost)
	a.parentLink()
	a.parentID()
	a.snapshots()
	if !to.Checkpoints {
		lost.Add(loss.Checkpoint, loss.Dropped, layout+" has no file snapshots", len(a.meta.Checkpoints))
	}
	if !to.Linear {
		return a.tree(r, reopen)
	}
	add, marks := (*convtree.PathIndex).Add, []int(nil)
	if to.Sidechains {
		// the entries that start and end a run go with the run written
		// inline: a layout may hang them off the call beside the path
		// (the model's)
		n := 0
		add = func(x *convtree.PathIndex, e *session.Entry) {
			if e.Kind == session.KindSubagent || e.Kind == session.KindSubagentEnd {
				marks = append(marks, n)
			}
			n++
			x.Add(e)
		}
	}
	var named []int32
	x, entries, err := convtree.Index(r, reopen, a.namesModels(add, &named))
	if err != nil {
		return nil, err
	}
	branches := x.Plan()
	if err := a.needsModel(x, named, reopen); err != nil {
		return nil, err
	}
	for _, i := range marks {
		if !x.OnPath(i) {
			if a.marks == nil {
				a.marks = map[int]bool{}
			}
			a.marks[i] = true
		}
	}
	pathLoss(x, lost, layout, branches, to, len(a.marks))
	if t, ok := entries.(interface{ Transient() }); ok {
		// the target's writer is another layout's: it reads no entry's
		// Source.Raw, so the reader need not copy each line to keep it
		t.Transient()
	}
	a.src, a.path, a.reopen = entries, x, reopen
	return a, nil
}

// pathLoss counts what flattening to the active path drops for a target
// declaring to: one that keeps the sub-agent runs besides the path
// (keepsRuns) is left them, and the marks entries off the path that start
// or end one.
func pathLoss(x *convtree.PathIndex, lost *loss.Counter, layout string, branches int, to format.Caps, marks int) {
	path, main, side := x.Counts()
	if !keepsRuns(to) {
		lost.Add(loss.Sidechain, loss.Dropped, noRuns(to, layout), side)
	}
	if branches > 1 {
		lost.Add(loss.Branch, loss.Flattened, layout+" is linear: only the active path (root to the last entry) is kept", branches-1)
	}
	lost.Add(loss.OffPath, loss.Dropped, layout+" is linear: entries off the active path are not written", main-path-marks)
}

// PathIDs calls f once for each distinct id of an entry r will give, when
// r is what Adapt returned for a linear target (a writer reserves the ids
// it keeps before it derives others); it reports whether it could.
func (a *adapted) PathIDs(f func(id string)) bool {
	if a.path == nil {
		return false
	}
	a.path.PathIDs(f)
	a.path.ForgetIDs() // read once, up front: a converter keeps no entry's id index while it writes
	return true
}

// PathTimes returns the times of the first and last entries of the active
// path read so far, entries the target does not keep included, when r is
// what Adapt returned for a linear target: the span of the session, which
// a layout that records it (goat's metadata) keeps.
func (a *adapted) PathTimes() (first, last session.Time, ok bool) {
	if a.path == nil || !a.seen {
		return session.Time{}, session.Time{}, false
	}
	return a.first, a.last, true
}

// adapted is the reader Adapt returns.
type adapted struct {
	src    session.Reader
	meta   *session.Meta
	to     format.Caps
	layout string
	lost   *loss.Counter
	path   *convtree.PathIndex            // linear targets: the entries to keep
	reopen func() (session.Reader, error) // linear targets: how Again reads the session again
	// linear targets keeping runs: the entries off the path that start or
	// end a run, kept with it (by index)
	marks map[int]bool
	i     int // entries read from src
	// the times of the first and last entries on the path, dropped ones
	// too: the session's span, whatever the target keeps of it
	first, last session.Time
	seen        bool
	up          map[string]string
	// the tool calls kept so far (ResultsNeedCall), and the sub-agent runs
	// no tool call started (RunsNeedCall)
	keptCalls, untiedRuns map[string]bool
	// the tool calls kept so far, that may start a run (RunsNeedKeptCall)
	runCalls map[string]bool
	// the messages kept so far, and the last one (FirstKeptMoved)
	kept    spell.Calls
	lastMsg string
	// the last message's time (TimesForward)
	lastMS   int64
	lastTime session.Time
	// the ids of the entries given so far, and whether there was one
	// (Caps.FirstKeptEarlier)
	given    idset.Index
	anyGiven bool
	// whether the fork entry was given as a message, and whether the
	// link to it was counted lost (Caps.ForkPointKept)
	forkKept, forkCounted bool
	// the entries given to the writer so far (FirstKeptNamed), and the
	// times it writes them with (MessageTimeAsEntry)
	nGiven int
	clock  spell.Clock
	// the results given by call id, the call ids of the calls given, and
	// whether those without a call were counted (ResultsInCall)
	results        map[string]int
	inCalls        map[string]bool
	resultsCounted bool
	// the session names no model on its path: each message is given the
	// target's default, once looked up (adapt_model.go)
	noModel                 bool
	dfltProvider, dfltModel string
	// tree targets: the index of the entry held back to be written last
	// (-1 for none), and the entry once read
	last1 int
	held  *session.Entry
	// the calls waiting for their results, and the entries to give before
	// the next one read (adapt_results.go)
	answers answers
	queue   []*session.Entry
	// the turn whose calls wait for their results, and the entries to give
	// before the next one read (adapt_join.go)
	turn   *heldTurn
	joined []*session.Entry
}

func (a *adapted) Meta() *session.Meta { return a.meta }
func (a *adapted) Close() error        { return a.src.Close() }

// next is the next entry adapted, before the calls it closes are answered
// (adapt_results.go).
func (a *adapted) next() (*session.Entry, error) {
	for {
		e, err := a.src.Next()
		if err != nil && a.held != nil && errors.Is(err, io.EOF) {
			e, a.held = a.held, nil
			return e, nil
		}
		if err != nil {
			if a.path != nil && a.i != a.path.Len() && errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("the session has %d entries, but had %d when it was first read", a.i, a.path.Len())
			}
			if errors.Is(err, io.EOF) {
				a.forkPoint()
			}
			return nil, err
		}
		if a.path != nil {
			if a.i >= a.path.Len() {
				return nil, fmt.Errorf("the session has more entries than when it was first read")
			}
			on := a.path.OnPath(a.i)
			a.i++
			if !on && (e.Sidechain == "" || !keepsRuns(a.to)) && !a.marks[a.i-1] {
				continue // counted by pathLoss
			}
			if !a.seen {
				a.first, a.seen = e.Time, true
			}
			a.last = e.Time
		}
		if a.path == nil && a.last1 >= 0 {
			// a tree target: the path's last kept entry is written last (tree)
			a.i++
			if a.i-1 == a.last1 {
				a.held = a.entry(e)
				continue
			}
		}
		if e = a.entry(e); e != nil {
			return e, nil
		}
	}
}

// keepsRuns reports whether a linear target keeps the sub-agent runs
// besides its active path: inline (Sidechains: Copilot CLI's events
// carrying agentId) or as files in its home (SidechainsInHome). The runs
// are off the path, which holds the main conversation only.
func keepsRuns(to format.Caps) bool { return to.Sidechains || to.SidechainsInHome }

// noRuns is why a target loses sub-agent runs.
func noRuns(to format.Caps, layout string) string {
	if to.RunsHomeOnly {
		return layout + " keeps sub-agent runs only as files of their own in its home, which a single file cannot hold: convert into a directory to keep them"
	}
	return layout + " has no sub-agent runs or side files"
}

// entry is e as the target can take it, or nil when it is dropped; what
// the target keeps of it is counted against its declaration (countEntry).
// What becomes of an entry the writer used to place (a compaction, an
// extension message, thinking of another layout) follows, as the writer
// did it: after what the entry held was counted.
func (a *adapted) entry(e *session.Entry) *session.Entry {
	if e = a.adapt(e); e == nil {
		return nil
	}
	countEntry(e, a.to, a.layout, a.lost)
	// the rules below drop or change what was counted above as the source
	// had it: a datum of what they drop is lost too
	if a.dropsKind(e) {
		return a.drop(e)
	}
	if e = a.custom(e); e == nil {
		return nil
	}
	if e.Kind == session.KindMessage && e.Message != nil {
		e = a.lastText(a.images(a.resultsOn(a.roleBlocks(a.callsOn(a.stop(e))))))
	}
	if e = a.lines(e); e == nil {
		return nil
	}
	if e = a.place(e); e == nil {
		return nil
	}
	if e = a.firstKeptEarlier(e); e == nil {
		return nil
	}
	e = a.defaultModel(a.times(a.compactionLacks(e)))
	a.compaction(e)
	a.message(e)
	a.countConverted(e)
	if e = a.ownThinking(a.compactionAsUser(e)); e != nil {
		a.written(e)
		a.forkEntry(e)
		e = a.fitLong(e)
	}
	return e
}

// place is e, which the target holds by its kind, role and blocks, where
// the target can place it, or nil when the target has no place for it:
// a sub-agent run no tool call started (adapt_runs.go), a tool result
// whose call is not kept (adapt_needcall.go); a tool result keeps what the
// target keeps of one (adapt_orphans.go).
func (a *adapted) place(e *session.Entry) *session.Entry {
	if a.untied(e) || a.offPathRun(e) {
		return a.drop(e)
	}
	if e = a.needCall(e); e == nil {
		return nil
	}
	return a.resultText(e)
}

func (a *adapted) adapt(e *session.Entry) *session.Entry {
	if e.Sidechain != "" && !a.to.Sidechains && !a.to.SidechainsInHome {
		a.lost.Add(loss.Sidechain, loss.Dropped, noRuns(a.to, a.layout), 1)
		return nil
	}
	if plain(e.Kind) && !a.to.HoldsKind(e.Kind) && !a.to.ConvertsKind(e.Kind) {
		a.lost.Add(loss.Entry(e), loss.Dropped, a.layout+" has "+kinds(a.to)+" entries only", 1)
		return a.drop(e)
	}
	if p, ok := a.up[e.ParentID]; ok && e.ParentID != "" {
		c := *e
		c.ParentID = p
		e = &c
	}
	if e.Kind != session.KindMessage || e.Message == nil {
		return e
	}
	if a.to.Fallback != "" {
		if e = a.role(e); e == nil {
			return nil
		}
	}
	return a.blocks(e)
}

// blocks gives tool calls without an id one (CallID), and drops the content blocks the target neither holds (for the
// message's role) nor converts, and the signatures it keeps on none of
// those it keeps.
func (a *adapted) blocks(e *session.Entry) *session.Entry {
	if m := mintCallIDs(a.meta.ID, e, e.Message); m != e.Message {
		// A call without an id (a Codex web search) gets one, so that
		// no two calls of the session share the empty id.
		c := *e
		c.Message = m
		e = &c
	}
	m := e.Message
	for i := range m.Content {
		if k, n := m.Content[i].Opaque(); n > 0 {
			a.lost.Add(loss.Kind(k), loss.Dropped, "only "+m.Content[i].Origin+" can carry it; "+a.layout+" writes the block without it", n)
		}
	}
	keep := func(b session.Block) bool {
		if b.Type == session.BlockImage && a.to.HoldsBlock(b.Type) {
			return a.to.ImagesFor(m.Role)
		}
		return a.to.HoldsBlock(b.Type) || a.to.ConvertsBlock(b.Type)
	}
	c, _ := editBlocks(e, func(b session.Block) bool { return !keep(b) || a.unsigns(b) }, func(b session.Block) (session.Block, bool) {
		if keep(b) {
			return a.unsign(b), true
		}
		reason := fmt.Sprintf("%s has no %s blocks", a.layout, b.Type)
		if a.to.HoldsBlock(b.Type) {
			reason = fmt.Sprintf("%s keeps %s blocks in %s messages only", a.layout, b.Type, roles(a.to.ImagesOn))
		}
		a.lost.Add(loss.Block(b.Type), loss.Dropped, reason, 1)
		return b, false
	})
	return c
}

// unsigns reports whether b carries a signature the target does not keep on
// its type (a thinking block's redaction flag goes with it).
func (a *adapted) unsigns(b session.Block) bool {
	signed := b.Signature != "" || b.Type == session.BlockThinking && b.Redacted
	return signed && !a.to.KeepsSignature(b.Type)
}

// unsign is b without its signature, counted.
func (a *adapted) unsign(b session.Block) session.Block {
	kind, what := loss.SignatureOf(b.Type), "signature"
	if b.Type == session.BlockThinking {
		kind, what = loss.Signature, "signature or redaction flag"
	}
	reason := fmt.Sprintf("%s keeps no %s on %s blocks", a.layout, what, b.Type)
	a.lost.Add(kind, loss.Dropped, reason, 1)
	b.Signature, b.Redacted = "", false
	return b
}

// role gives a message of a role the target lacks one it holds.
func (a *adapted) role(e *session.Entry) *session.Entry {
	m := e.Message
	if a.to.HoldsRole(m.Role) {
		alias, ok := a.to.Alias[m.Role]
		if !ok {
			return e
		}
		a.lost.Add(loss.Role(m.Role), loss.Converted, fmt.Sprintf("%s has no %s role; written as %s", a.layout, m.Role, alias), 1)
		c, cm := *e, *m
		cm.Role, cm.SourceRole = alias, ""
		c.Message = &cm
		return &c
	}
	if a.to.Fallback == format.FallbackDrop {
		a.lost.Add(loss.Role(m.Role), loss.Dropped, a.layout+" has "+roles(a.to.Roles)+" messages only", 1)
		return a.drop(e)
	}
	a.lost.Add(loss.Role(m.Role), loss.Converted, a.layout+" has no such role; written as a user message", 1)
	c := *e
	c.Message = spell.AsUser(m)
	return &c
}

// drop records that what hangs from e now hangs from e's parent.
func (a *adapted) drop(e *session.Entry) *session.Entry {
	if e.ID == "" {
		return nil
	}
	if a.up == nil {
		a.up = map[string]string{}
	}
	p := e.ParentID
	if q, ok := a.up[p]; ok && p != "" {
		p = q
	}
	a.up[e.ID] = p
	return nil
}

// plain reports whether an entry of kind k is a whole entry the target
// holds or not by its kind alone: messages, extension messages and
// compactions are placed by the writer.
func plain(k session.Kind) bool {
	switch k {
	case session.KindMessage, session.KindCustomMessage, session.KindCompaction:
		return false
	}
	return true
}

// kinds spells the entry kinds c holds for a reason.
func kinds(c format.Caps) string {
	ks := []session.Kind{session.KindMessage}
	ks = append(ks, c.Kinds...)
	return list(append(ks, c.KindsConverted...))
}

// roles spells a list of roles for a reason: "user, assistant and tool".
func roles(rs []session.Role) string { return list(rs) }

func list[T ~string](xs []T) string {
	s := ""
	for i, r := range xs {
		switch {
		case i == 0:
		case i == len(xs)-1:
			s += " and "
		default:
			s += ", "
		}
		s += string(r)
	}
	return s
}
