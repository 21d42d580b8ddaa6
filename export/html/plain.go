package html

import (
	"bufio"
	"strconv"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// The page reads without JavaScript too: besides the header (the session's
// facts, plain HTML already), it carries every prompt of the shown branch
// as a list, each a link target, and the first cards of the conversation.
// The page's script takes the list over as the outline of prompts and
// replaces the cards with its own. An entry is dropped once rendered, so
// what this needs is kept while the entries stream past: each prompt's
// text (cut at promptMax characters) and the first chunk of entries, whose
// first cards are rendered again at the end, when the shown branch is
// known.

// promptMax is how much of a prompt the list keeps: a prompt holding a
// pasted log is not read in a list, and the whole of it is in its card.
const promptMax = 2000

// firstCards bounds the cards of the first screen, and FirstScreenBytes
// their HTML: they are in the page twice (here and in its data), and a
// card that would pass the bound ends them, so that a first tool result of
// megabytes is not.
const (
	firstCards       = 6
	FirstScreenBytes = 48 << 10
)

type plain struct {
	prompts map[int]string // entry index -> what the user wrote
	first   *job           // the first chunk of entries, with their calls' results
}

func newPlain() *plain { return &plain{prompts: map[int]string{}} }

// add notes entry i as it is read.
func (p *plain) add(i int, e *session.Entry) {
	m := e.Message
	if m == nil || m.Role != session.RoleUser || m.Exec != nil {
		return
	}
	if s := transcript.PromptText(m.Text()); s != "" {
		if len([]rune(s)) > promptMax {
			s = string([]rune(s)[:promptMax]) + "…"
		}
		p.prompts[i] = s
	}
}

// keep holds on to the first chunk of entries.
func (p *plain) keep(j job) {
	if p.first == nil && j.start == 0 {
		p.first = &j
	}
}

// pathOf is the shown branch's entry indexes, root first.
func pathOf(t *transcript.Transcript) []int {
	var out []int
	seen := map[int]bool{}
	for i := t.LeafAt; i >= 0 && !seen[i]; i = t.Conv.Parent(i) {
		seen[i] = true
		out = append(out, i)
	}
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// cards renders the first cards of the shown branch: those of its first
// entries that are in the first chunk and shown as messages of their own.
// It returns the cards and the set of entries they show.
func (p *plain) cards(t *transcript.Transcript, path []int) (string, map[int]bool) {
	shown := map[int]bool{}
	if p.first == nil {
		return "", shown
	}
	hidden := map[int]bool{} // the cards a sub-agent run's fold stands for
	for _, r := range t.Runs() {
		hidden[r.Start], hidden[r.End] = true, true
	}
	var b buf
	b.args = &argMemo{}
	for _, i := range path {
		k := i - p.first.start
		if k >= len(p.first.entries) || len(shown) == firstCards {
			break
		}
		e := p.first.entries[k]
		if !p.first.t.Visible(e) || t.InRun(i) || hidden[i] {
			continue
		}
		n := len(b.b)
		b.args.reset()
		entryHTML(&b, p.first.t, e, i)
		if len(b.b) > FirstScreenBytes {
			b.b = b.b[:n]
			break
		}
		shown[i] = true
	}
	return b.String(), shown
}

// outline writes the list of the branch's prompts. A prompt whose card is
// among the first ones is a link to it; the others are link targets
// themselves, under their entry's anchor.
func (p *plain) outline(w *bufio.Writer, t *transcript.Transcript, path []int, inCards map[int]bool) {
	n := 0
	for _, i := range path {
		if _, ok := p.prompts[i]; ok {
			n++
		}
	}
	if n == 0 {
		return
	}
	w.WriteString(`<details id="outline" open><summary>Prompts · ` + strconv.Itoa(n) + `</summary><ol>`)
	for _, i := range path {
		s, ok := p.prompts[i]
		if !ok {
			continue
		}
		id := esc(Anchor(t.S.Entries[i], i))
		if inCards[i] {
			w.WriteString(`<li data-i="` + strconv.Itoa(i) + `"><a href="#` + id + `">` + esc(s) + `</a></li>`)
		} else {
			w.WriteString(`<li id="` + id + `" data-i="` + strconv.Itoa(i) + `"><a href="#` + id + `">` + esc(s) + `</a></li>`)
		}
	}
	w.WriteString(`</ol></details>`)
}
