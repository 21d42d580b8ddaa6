package html

import (
	"bufio"
	"fmt"
	"strings"
	"time"

	"github.com/sesstool/sesstool/export/transcript"
)

func header(w *bufio.Writer, t *transcript.Transcript, title string) {
	st := t.Stats()
	m := t.S.Meta
	w.WriteString(`<header id="top"><div class="bar"><h1>` + esc(title) + `</h1><button id="theme" type="button" title="toggle light/dark">◐</button></div><dl class="meta">`)
	row := func(k, v string) {
		if v != "" {
			w.WriteString(`<div><dt>` + k + `</dt><dd>` + esc(v) + `</dd></div>`)
		}
	}
	row("session", m.ID)
	row("cwd", m.Cwd)
	created := m.Created.Raw
	if !m.Created.T.IsZero() {
		created = m.Created.T.UTC().Format(time.DateTime) + " UTC"
	}
	row("created", created)
	row("models", strings.Join(st.Models, ", "))
	var roles []string
	for _, r := range st.RoleNames() {
		roles = append(roles, fmt.Sprintf("%s %d", r, st.Roles[r]))
	}
	row("messages", strings.Join(roles, " · "))
	row("tool calls", fmt.Sprint(st.ToolCalls))
	row("entries", fmt.Sprintf("%d in %d branch(es)", st.Entries, st.Branches))
	row("tokens", fmt.Sprintf("in %d · out %d · cache read %d · cache write %d", st.Input, st.Output, st.CacheRead, st.CacheWrite))
	row("cost", fmt.Sprintf("$%.4f", st.Cost))
	w.WriteString(`</dl>`)
	chart(w, st.Turns)
	w.WriteString(`</header>`)
}

// chart draws context tokens (line) and cumulative cost (dashed line) per
// assistant turn of the active path, each scaled to its own maximum.
func chart(w *bufio.Writer, turns []transcript.Turn) {
	if len(turns) < 2 {
		return
	}
	const W, H = 600.0, 80.0
	var maxTok int64
	var maxCost float64
	for _, t := range turns {
		maxTok = max(maxTok, t.Context)
		maxCost = max(maxCost, t.Cost)
	}
	x := func(i int) float64 { return float64(i) * W / float64(len(turns)-1) }
	var tok, cost strings.Builder
	for i, t := range turns {
		y := H
		if maxTok > 0 {
			y = H - float64(t.Context)/float64(maxTok)*(H-4)
		}
		fmt.Fprintf(&tok, "%.1f,%.1f ", x(i), y)
		y = H
		if maxCost > 0 {
			y = H - t.Cost/maxCost*(H-4)
		}
		fmt.Fprintf(&cost, "%.1f,%.1f ", x(i), y)
	}
	fmt.Fprintf(w, `<figure class="chart"><svg viewBox="0 0 %.0f %.0f" preserveAspectRatio="none" role="img" aria-label="context tokens and cumulative cost per turn">`+
		`<polyline class="tok" fill="none" points="%s"/><polyline class="cost" fill="none" points="%s"/></svg>`+
		`<figcaption><span class="k-tok">context tokens per turn (max %d)</span> <span class="k-cost">cumulative cost (max $%.4f)</span> · %d turns</figcaption></figure>`,
		W, H, strings.TrimSpace(tok.String()), strings.TrimSpace(cost.String()), maxTok, maxCost, len(turns))
}
