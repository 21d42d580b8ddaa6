package session

import (
	"strings"
	"sync"
)

// A layout's records are not all conversation. Claude Code writes a
// progress line for every hook and tool tick, a file-history snapshot per
// prompt, queue operations; Codex writes token counts, turn contexts and a
// second copy of every message as an event. Exporters show the
// conversation: records a layout declares bookkeeping are neither cards
// nor counted as messages, and are shown only when asked for (every
// record). Records that mean something to a reader (a turn's duration, a
// stop hook's verdict, a compaction) are declared with a note, a line the
// exporters show in place of the record.
//
// Each layout declares its records beside its reader (format/<layout>/
// records.go), by the entry's Type as the reader sets it, for entries of
// its Origin; the exporters, the tree and the counts ask here.

var records = struct {
	sync.RWMutex
	bookkeeping map[string][]string                       // origin -> types (a trailing * is a prefix)
	notes       map[string]map[string]func(Custom) string // origin -> type -> note
}{bookkeeping: map[string][]string{}, notes: map[string]map[string]func(Custom) string{}}

// DeclareBookkeeping declares the types of origin's entries that are not
// the conversation. A type ending in * stands for every type it begins.
func DeclareBookkeeping(origin string, types ...string) {
	records.Lock()
	defer records.Unlock()
	records.bookkeeping[origin] = append(records.bookkeeping[origin], types...)
}

// DeclareNote declares how an entry of origin with type typ (a KindOther
// or KindCustom record, its body in Custom) is shown: as the line note
// returns, or as the record itself when it returns "".
func DeclareNote(origin, typ string, note func(Custom) string) {
	records.Lock()
	defer records.Unlock()
	if records.notes[origin] == nil {
		records.notes[origin] = map[string]func(Custom) string{}
	}
	records.notes[origin][typ] = note
}

// IsBookkeeping reports whether e is a record its layout declares
// bookkeeping.
func IsBookkeeping(e *Entry) bool {
	if e.Kind != KindOther && e.Kind != KindCustom {
		return false
	}
	records.RLock()
	defer records.RUnlock()
	for _, t := range records.bookkeeping[e.Origin] {
		if p, ok := strings.CutSuffix(t, "*"); ok && strings.HasPrefix(e.Type, p) || t == e.Type {
			return true
		}
	}
	return false
}

// Note is the line e is shown as, when its layout declares one for it and
// its body says something; "" otherwise.
func Note(e *Entry) string {
	if (e.Kind != KindOther && e.Kind != KindCustom) || e.Custom == nil || len(e.Custom.Data) == 0 {
		return ""
	}
	records.RLock()
	f := records.notes[e.Origin][e.Type]
	records.RUnlock()
	if f == nil {
		return ""
	}
	return f(*e.Custom)
}

var compactionRuns = struct {
	sync.RWMutex
	is map[string]func(Subagent) bool // origin -> whether a run is its compaction agent's
}{is: map[string]func(Subagent) bool{}}

// DeclareCompactionRun declares which sub-agent runs of origin's sessions
// are its compaction: the run an agent starts to write a compaction's
// summary (Claude Code's agent-acompact-*), which no tool call starts.
// Exporters show it with the compaction, not as a run whose call is lost.
func DeclareCompactionRun(origin string, is func(Subagent) bool) {
	compactionRuns.Lock()
	defer compactionRuns.Unlock()
	compactionRuns.is[origin] = is
}

// IsCompactionRun reports whether e, a subagent entry, starts a run its
// layout declares a compaction.
func IsCompactionRun(e *Entry) bool {
	if e.Kind != KindSubagent || e.Subagent == nil {
		return false
	}
	compactionRuns.RLock()
	is := compactionRuns.is[e.Origin]
	compactionRuns.RUnlock()
	return is != nil && is(*e.Subagent)
}
