package markdown

import (
	"errors"
	"fmt"
	"io"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// ErrChanged is Stream's error when the second read of a session does not
// match the first.
var ErrChanged = errors.New("the session changed between its two reads")

// Stream writes the transcript of a session read twice, so that it is never
// held: t indexes its skeleton (transcript.Skeleton with Results, read
// first), which gives the heading, the path, which result answers which
// call and where each sub-agent run goes; next reads the session's entries
// again, in the same order, and each shown entry is written once it, the
// results of its calls and the runs they started (with theirs) have been
// read, then dropped. Only entries read before their turn are held: a
// result that comes before its call, and what a run makes wait — the
// entry holding the call that started it and the entries after it, until
// the run has been read, and the run itself. A Claude Code run follows its
// call's result, so that is the run; Codex runs follow their parent's own
// entries, so a Codex session with sub-agents is held from the first call
// that started one. Runs whose call is not found are held to the end. The
// output is WriteTools's, byte for byte.
func Stream(w io.Writer, t *transcript.Transcript, next func() (*session.Entry, error), tools Tools) error {
	n := len(t.S.Entries)
	hosted := t.HostedRuns()
	index := make(map[*session.Entry]int32, len(t.Results))
	for _, r := range t.Results {
		index[r] = -1
	}
	for i, e := range t.S.Entries {
		if _, ok := index[e]; ok {
			index[e] = int32(i)
		}
	}
	// items are what is written in order: each shown entry (entry >= 0),
	// then each run whose call is not found; need, what writing it reads
	type item struct {
		entry int32
		run   *transcript.Run
		need  []int32
		last  int32 // the greatest of need
	}
	var items []item
	runsAt := t.RunsAt()
	for _, i := range t.Shown() {
		need := runEntries(t, hosted, index, i, nil, 0)
		for _, r := range runsAt[i] {
			need = runNeeds(t, hosted, index, r, need, 1) // a compaction's run, read at the end
		}
		items = append(items, item{entry: int32(i), need: need})
	}
	for _, r := range t.Orphans() {
		items = append(items, item{entry: -1, run: r, need: runNeeds(t, hosted, index, r, nil, 1)})
	}
	keep := make([]bool, n)
	uses := map[int32]int{} // entry index -> items still to write that read it
	result := map[string]int32{}
	for k := range items {
		it := &items[k]
		it.last = -1
		for _, j := range it.need {
			keep[j] = true
			uses[j]++
			it.last = max(it.last, j)
			eachCall(t.S.Entries[j], func(id string) {
				if r := t.Results[id]; r != nil {
					result[id] = index[r]
				}
			})
		}
	}
	index = nil
	held := map[int32]*session.Entry{}
	x := start(w, t, tools, func(id string) *session.Entry {
		if r, ok := result[id]; ok {
			return held[r]
		}
		return nil
	}, func(i int) *session.Entry { return held[int32(i)] })
	k := 0
	write := func(read int32) {
		for ; k < len(items) && items[k].last < read; k++ {
			it := items[k]
			if it.entry >= 0 {
				x.entryAt(int(it.entry), held[it.entry])
			} else {
				x.orphan(it.run)
			}
			for _, j := range it.need {
				if uses[j]--; uses[j] == 0 {
					delete(held, j)
				}
			}
			items[k].need = nil
		}
	}
	for i := int32(0); ; i++ {
		e, err := next()
		if errors.Is(err, io.EOF) {
			if int(i) != n {
				return fmt.Errorf("%w: %d entries, %d when it was first read", ErrChanged, i, n)
			}
			break
		}
		if err != nil {
			return err
		}
		if int(i) >= n {
			return fmt.Errorf("%w: more entries than when it was first read", ErrChanged)
		}
		if !keep[i] {
			continue
		}
		held[i] = e
		write(i + 1)
	}
	write(int32(n))
	if k < len(items) {
		return ErrChanged
	}
	return x.w.Flush()
}

// eachCall calls f with the id of each tool call of e (a skeleton keeps them).
func eachCall(e *session.Entry, f func(id string)) {
	if m := e.Message; m != nil {
		for _, b := range m.Content {
			if b.Type == session.BlockToolCall {
				f(b.ToolCallID)
			}
		}
	}
}
