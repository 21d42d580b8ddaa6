package html

import (
	"encoding/json"
	"strings"

	"github.com/sesstool/sesstool/jsonx"
)

// toolDiff returns the diff an edit tool put in its result's details and
// the details without it. pi's edit tool writes one (details.diff) with
// the file's own line numbers, where a diff of the call's old and new
// text can only count from the snippet's first line; and the details'
// copy, as escaped JSON, repeated it. ok is false when the details hold
// no diff of that form (isToolDiff): the caller then diffs the arguments
// and shows the details whole.
func toolDiff(details json.RawMessage) (diff string, rest json.RawMessage, ok bool) {
	if len(details) == 0 {
		return "", details, false
	}
	var o jsonx.Obj
	others := 0
	err := jsonx.Members(details, func(k string, v []byte) {
		if k == "diff" && !ok {
			if s, isStr := jsonx.Unquote(v); isStr && isToolDiff(s) {
				diff, ok = s, true
				return
			}
		}
		o.Raw(k, v)
		others++
	})
	switch {
	case err != nil || !ok:
		return "", details, false
	case others == 0:
		return diff, nil, true
	}
	return diff, o.Bytes(), true
}

// diffLine is one line of a tool's diff: mark '+' (added, n its number in
// the new file), '-' (removed, n in the old) or ' ' (kept, n in the old;
// skip for the "..." that stands for kept lines left out).
type diffLine struct {
	mark byte
	n    int
	text string
	skip bool
}

// parseDiffLine reads "+N text", "-N text", " N text" (N padded with
// spaces to the widest number) or " ..." with any padding.
func parseDiffLine(l string) (diffLine, bool) {
	if l == "" || (l[0] != '+' && l[0] != '-' && l[0] != ' ') {
		return diffLine{}, false
	}
	d := diffLine{mark: l[0]}
	rest := strings.TrimLeft(l[1:], " ")
	if d.mark == ' ' && rest == "..." {
		d.skip = true
		return d, true
	}
	i := 0
	for i < len(rest) && i < 9 && rest[i] >= '0' && rest[i] <= '9' {
		d.n = d.n*10 + int(rest[i]-'0')
		i++
	}
	if i == 0 || i == len(rest) || rest[i] != ' ' {
		return diffLine{}, false
	}
	d.text = rest[i+1:]
	return d, true
}

// isToolDiff reports whether every line of s is a line of a tool's diff,
// and one at least a change.
func isToolDiff(s string) bool {
	changed := false
	for l := range strings.SplitSeq(s, "\n") {
		d, ok := parseDiffLine(l)
		if !ok {
			return false
		}
		changed = changed || d.mark != ' '
	}
	return changed
}

// toolDiffHTML shows a tool's diff (isToolDiff) as diffHTML shows one it
// computes, each line numbered in the old and the new file: a kept line's
// number in the new file is its old one moved by the lines added and
// removed before it.
func toolDiffHTML(out *buf, diff string) {
	out.WriteString(`<pre class="diff">`)
	dw := newDiffWriter(out)
	moved := 0
	for l := range strings.SplitSeq(diff, "\n") {
		d, _ := parseDiffLine(l)
		switch {
		case d.mark == '+':
			dw.line(diffAdd, 0, d.n, d.text)
			moved++
		case d.mark == '-':
			dw.line(diffDel, d.n, 0, d.text)
			moved--
		case d.skip:
			dw.line(diffCtx, 0, 0, "...")
		default:
			dw.line(diffCtx, d.n, d.n+moved, d.text)
		}
	}
	out.WriteString(`</pre>`)
}
