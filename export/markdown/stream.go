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
// first), which gives the heading, the path and which result answers which
// call; next reads the session's entries again, in the same order, and
// each shown entry is written once it and the results of its calls have
// been read, then dropped. Only entries read before their turn are held
// (a result that comes before its call, a sub-agent run before the entry
// that started it). The output is WriteTools's, byte for byte.
func Stream(w io.Writer, t *transcript.Transcript, next func() (*session.Entry, error), tools Tools) error {
	n := len(t.S.Entries)
	// the shown entries in order and the results of their calls, as
	// indexes into the session
	show := t.WithRuns()
	at := make(map[*session.Entry]int32, len(show))
	for _, e := range show {
		if t.Visible(e) {
			at[e] = -1
			eachCall(e, func(id string) {
				if r := t.Results[id]; r != nil {
					at[r] = -1
				}
			})
		}
	}
	for i, e := range t.S.Entries {
		if _, ok := at[e]; ok {
			at[e] = int32(i)
		}
	}
	keep := make([]bool, n)      // shown, or the result of a shown call
	uses := map[int32]int{}      // result index -> shown calls still to write
	result := map[string]int32{} // call id -> index of its result
	seq := make([]int32, 0, len(show))
	for _, e := range show {
		if !t.Visible(e) {
			continue
		}
		seq = append(seq, at[e])
		keep[at[e]] = true
		eachCall(e, func(id string) {
			if r := t.Results[id]; r != nil {
				result[id] = at[r]
				keep[at[r]] = true
				uses[at[r]]++
			}
		})
	}
	show, at = nil, nil
	held := map[int32]*session.Entry{}
	x := start(w, t, tools, func(id string) *session.Entry {
		if r, ok := result[id]; ok {
			return held[r]
		}
		return nil
	})
	// ready reports whether the k-th shown entry and its calls' results
	// have been read
	ready := func(k int) bool {
		i := seq[k]
		if held[i] == nil {
			return false
		}
		ok := true
		eachCall(t.S.Entries[i], func(id string) {
			if r, found := result[id]; found && held[r] == nil {
				ok = false
			}
		})
		return ok
	}
	k := 0
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
		for k < len(seq) && ready(k) {
			j := seq[k]
			x.entry(held[j])
			delete(held, j)
			eachCall(t.S.Entries[j], func(id string) {
				if r, ok := result[id]; ok {
					if uses[r]--; uses[r] == 0 {
						delete(held, r)
					}
				}
			})
			k++
		}
	}
	if k < len(seq) {
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
