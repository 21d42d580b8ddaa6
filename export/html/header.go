package html

import (
	"bufio"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/sesstool/sesstool/export/transcript"
)

func header(w *bufio.Writer, t *transcript.Transcript, title string) {
	st := t.Stats()
	m := t.S.Meta
	w.WriteString(`<header id="top"><div class="bar"><button id="menu" type="button" title="branches and search" aria-controls="side" aria-expanded="false">☰</button><h1>` + esc(title) + `</h1>` +
		`<button id="facts" type="button" title="session facts" aria-expanded="false">info</button>` +
		`<button id="help" type="button" title="keyboard and help" aria-controls="helpbox" aria-expanded="false">?</button>` +
		`<button id="theme" type="button" title="toggle light/dark">◐</button></div>`)
	helpBox(w)
	w.WriteString(`<div id="about"><dl class="meta">`)
	row := func(k, v string) {
		if v != "" {
			w.WriteString(`<div><dt>` + k + `</dt><dd>` + esc(v) + `</dd></div>`)
		}
	}
	row("session", m.ID)
	if o, ok := t.Origin(); ok {
		w.WriteString(`<div class="origin"><dt>forked from</dt><dd>` + esc(strings.TrimPrefix(o.Line(), "forked from ")) + `</dd></div>`)
		row("branch summary", o.Summary)
	}
	row("cwd", m.Cwd)
	created := m.Created.Raw
	if !m.Created.T.IsZero() {
		created = m.Created.T.UTC().Format(time.DateTime) + " UTC"
	}
	row("created", created)
	row("models", strings.Join(st.Models, ", "))
	var roles []string
	for _, r := range st.RoleNames() {
		roles = append(roles, fmt.Sprintf("%s %s", r, Thousands(int64(st.Roles[r]))))
	}
	row("messages", strings.Join(roles, " · "))
	row("tool calls", Thousands(int64(st.ToolCalls)))
	if d := t.Duration(); d > 0 {
		row("duration", d.Round(time.Second).String())
	}
	row("entries", fmt.Sprintf("%s in %s", Thousands(int64(st.Entries)), Plural(st.Branches, "branch")))
	if st.Input+st.Output+st.CacheRead+st.CacheWrite > 0 {
		row("tokens", tokens(st))
	}
	if st.HasCost {
		row("cost", Money(st.Cost))
	}
	w.WriteString(`</dl>`)
	if st.Input+st.Output+st.CacheRead+st.CacheWrite > 0 {
		w.WriteString(`<p class="legend">Under each reply: <b>↑</b> input tokens · <b>↓</b> output tokens · <b>R</b> cache read · <b>W</b> cache write · cost of the reply. A part is left out when the session did not record it.</p>`)
	}
	chart(w, st.Turns)
	w.WriteString(`</div></header>`)
}

func tokens(st transcript.Stats) string {
	var parts []string
	for _, p := range []struct {
		n    int64
		name string
	}{{st.Input, "in"}, {st.Output, "out"}, {st.CacheRead, "cache read"}, {st.CacheWrite, "cache write"}} {
		if p.n != 0 {
			parts = append(parts, p.name+" "+Thousands(p.n))
		}
	}
	return strings.Join(parts, " · ")
}

// helpBox is the page's help: what the keys do.
func helpBox(w *bufio.Writer) {
	w.WriteString(`<div id="helpbox" hidden><h2>Keys</h2><dl>` +
		`<div><dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>next / previous message</dd></div>` +
		`<div><dt><kbd>J</kbd> / <kbd>K</kbd></dt><dd>next / previous prompt (the outline of prompts is above the tree)</dd></div>` +
		`<div><dt>the tree</dt><dd><kbd>Tab</kbd> into it, arrows to move, <kbd>Enter</kbd> to open</dd></div>` +
		`<div><dt><kbd>/</kbd></dt><dd>search every message of every branch</dd></div>` +
		`<div><dt><kbd>Enter</kbd> / <kbd>Shift</kbd>+<kbd>Enter</kbd></dt><dd>in the search box: next / previous hit (also <kbd>n</kbd> / <kbd>N</kbd>)</dd></div>` +
		`<div><dt><kbd>e</kbd> / <kbd>c</kbd></dt><dd>expand all / collapse all</dd></div>` +
		`<div><dt><kbd>t</kbd></dt><dd>show or hide the branch tree (narrow screens)</dd></div>` +
		`<div><dt><kbd>?</kbd></dt><dd>this help; <kbd>Esc</kbd> closes it</dd></div></dl>` +
		`<p>Each message has a copy button (its text) and a link button (a link to it on the branch shown); each code block has a copy button. Long output shows its first lines: “show all N lines” unfolds it.</p></div>`)
}

// chart draws context tokens (line) and cumulative cost (dashed line) per
// assistant turn of the shown path, each scaled to its own maximum, with
// its axes labelled around it. Each turn is a column with a tooltip that
// jumps to its message when clicked; a turn that recorded no usage breaks
// the token line instead of dropping it to zero.
func chart(w *bufio.Writer, turns []transcript.Turn) {
	if len(turns) < 2 {
		return
	}
	const W, H = 600.0, 80.0
	var maxTok int64
	var maxCost float64
	costed := false // a session that recorded no cost has no cost line, not one at $0
	for _, t := range turns {
		maxTok = max(maxTok, t.Context)
		maxCost = max(maxCost, t.Cost)
		costed = costed || t.Costed
	}
	if maxTok == 0 && !costed {
		return
	}
	step := W / float64(len(turns))
	x := func(i int) float64 { return (float64(i) + 0.5) * step }
	// one point, as fmt's "%.1f,%.1f" spells it (a long session has tens
	// of thousands of turns, drawn after the whole session is read)
	point := func(b []byte, x, y float64) []byte {
		b = strconv.AppendFloat(b, x, 'f', 1, 64)
		return strconv.AppendFloat(append(b, ','), y, 'f', 1, 64)
	}
	var lines, cost []byte
	var seg []byte // the points of the current line, space-separated
	flush := func() {
		if len(seg) > 0 {
			lines = append(lines, `<polyline class="tok" fill="none" points="`...)
			lines = append(append(lines, seg...), `"/>`...)
			seg = seg[:0]
		}
	}
	for i, t := range turns {
		if t.NoUsage {
			flush()
		} else if maxTok > 0 {
			if len(seg) > 0 {
				seg = append(seg, ' ')
			}
			seg = point(seg, x(i), H-float64(t.Context)/float64(maxTok)*(H-4))
		}
		if !costed {
			continue
		}
		y := H
		if maxCost > 0 {
			y = H - t.Cost/maxCost*(H-4)
		}
		if len(cost) > 0 {
			cost = append(cost, ' ')
		}
		cost = point(cost, x(i), y)
	}
	flush()
	costLine, label := "", "context tokens per turn"
	if costed {
		costLine, label = `<polyline class="cost" fill="none" points="`+string(cost)+`"/>`, "context tokens and cumulative cost per turn"
	}
	fmt.Fprintf(w, `<figure class="chart" id="chart"><div class="yax"><span>%s</span><span>0</span></div>`+
		`<svg viewBox="0 0 %.0f %.0f" preserveAspectRatio="none" role="img" aria-label="%s">%s%s`,
		Thousands(maxTok), W, H, label, lines, costLine)
	var r []byte
	for lo, hi := range turnRuns(len(turns)) {
		r = append(r[:0], `<rect class="turn" x="`...)
		r = strconv.AppendFloat(r, float64(lo)*step, 'f', 1, 64)
		r = append(r, `" y="0" width="`...)
		r = strconv.AppendFloat(r, float64(hi-lo)*step, 'f', 1, 64)
		r = append(r, `" height="`...)
		r = strconv.AppendFloat(r, H, 'f', 0, 64)
		r = append(r, `" data-e="`...)
		r = strconv.AppendInt(r, int64(turns[lo].Index), 10)
		r = append(r, `"><title>`...)
		r = append(r, esc(turnTip(turns, lo, hi))...)
		r = append(r, `</title></rect>`...)
		w.Write(r)
	}
	top, bottom, key := "—", "", `<span class="k-cost">cost not recorded</span>`
	if costed {
		top, bottom, key = Money(maxCost), "$0", `<span class="k-cost">- - cumulative cost</span>`
	}
	fmt.Fprintf(w, `</svg><div class="yax cost"><span>%s</span><span>%s</span></div>`+
		`<div class="xax"><span>turn 1</span><span>turn %s</span></div>`+
		`<figcaption><span class="k-tok">— context tokens per turn</span> %s · %s · gaps are turns without usage; click a turn to open it</figcaption></figure>`,
		top, bottom, Thousands(int64(len(turns))), key, Plural(len(turns), "turn"))
}

// chartTargets is how many turns, or runs of turns, the chart offers to
// click: one per unit of its 600-unit width. A long session's turns are
// grouped into runs of consecutive turns, since a turn narrower than a
// unit could not be pointed at (21,000 turns, each of 0.03 units, were
// written as 0.0 wide) and each is an element of the page.
const chartTargets = 600

// turnRuns yields the runs of n turns the chart's targets stand for: each
// turn alone up to chartTargets turns, else chartTargets runs of nearly
// equal length, as [lo, hi).
func turnRuns(n int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		k := min(n, chartTargets)
		for i := range k {
			if !yield(i*n/k, (i+1)*n/k) {
				return
			}
		}
	}
}

// turnTip is the tooltip of the turns [lo, hi): a run says the largest
// context among them and the cost at its end.
func turnTip(turns []transcript.Turn, lo, hi int) string {
	name := "turn " + Thousands(int64(lo+1))
	if hi-lo > 1 {
		name = "turns " + Thousands(int64(lo+1)) + "–" + Thousands(int64(hi))
	}
	var most int64
	used := false
	for _, t := range turns[lo:hi] {
		if !t.NoUsage {
			most, used = max(most, t.Context), true
		}
	}
	so := ""
	if turns[hi-1].Costed {
		so = " · " + Money(turns[hi-1].Cost) + " so far"
	}
	switch {
	case !used:
		return name + " · no token use recorded (aborted?)" + so
	case hi-lo > 1:
		return name + " · up to " + Thousands(most) + " context tokens" + so
	}
	return name + " · " + Thousands(most) + " context tokens" + so
}
