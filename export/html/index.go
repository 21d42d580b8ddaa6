package html

import (
	"bufio"
	_ "embed"
	"fmt"
	"html"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sesstool/sesstool/export/transcript"
)

// A store exported as a site gets an index.html next to its pages: a table
// of every session grouped by project, sortable by any column and filtered
// by text, project and dates; on a narrow screen each row is a card. Like a
// session's page it is self-contained, loads nothing, and its script is
// allowed by hash.

//go:embed index.js
var indexJS string

//go:embed index.css
var indexCSS string

// IndexCSP is the index page's Content-Security-Policy.
var IndexCSP = "default-src 'none'; img-src data:; style-src " + hash(indexCSS) + "; script-src " + hash(indexJS) +
	"; base-uri 'none'; form-action 'none'"

// IndexEntry is one session's row in a site's index. A site keeps it in
// its manifest for the sessions a re-export does not read again, hence
// the JSON names.
type IndexEntry struct {
	Href     string    `json:"href"` // the page's file name, relative to the index
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Date     time.Time `json:"date"`              // zero when the session says nothing
	Project  string    `json:"project,omitempty"` // the working directory
	Models   []string  `json:"models,omitempty"`
	Messages int       `json:"messages"`
	// Duration is from the first timed entry to the last; Timed says the
	// session has a timed entry at all (else it is unknown, shown as —).
	Duration time.Duration `json:"duration"`
	Timed    bool          `json:"timed,omitempty"`
	// Tokens is every token the messages record (input, output, cache
	// read and write); HasTokens says some message records usage.
	Tokens    int64   `json:"tokens"`
	HasTokens bool    `json:"hasTokens,omitempty"`
	Cost      float64 `json:"cost"`
	HasCost   bool    `json:"hasCost,omitempty"` // the session recorded a cost; else Cost is unknown, shown as —
}

// Summarize is what a site's index says of t, whose page is href.
func Summarize(t *transcript.Transcript, href string) IndexEntry {
	st := t.Stats()
	n := 0
	for _, c := range st.Roles {
		n += c
	}
	m := t.S.Meta
	date := m.Created.T
	timed := false
	for _, e := range t.S.Entries {
		if !e.Time.T.IsZero() {
			if date.IsZero() {
				date = e.Time.T
			}
			timed = true
			break
		}
	}
	tokens := st.Input + st.Output + st.CacheRead + st.CacheWrite
	return IndexEntry{Href: href, ID: m.ID, Title: t.Title(), Date: date, Project: m.Cwd, Models: st.Models, Messages: n,
		Duration: t.Duration(), Timed: timed, Tokens: tokens, HasTokens: tokens > 0, Cost: st.Cost, HasCost: st.HasCost}
}

// indexColumns are the index's columns, in order; the project is not one:
// sessions are grouped by it.
var indexColumns = []struct{ key, name, cls string }{
	{"date", "Date", ""}, {"title", "Title", ""}, {"messages", "Messages", "num"},
	{"duration", "Duration", "num"}, {"tokens", "Tokens", "num"}, {"cost", "Cost", "num"},
}

// WriteIndex writes the index page of a site: the sessions grouped by
// project (the group with the newest session first), newest first within
// each, with filters by text, project and date. Dates are UTC.
func WriteIndex(w io.Writer, es []IndexEntry) error {
	es = append([]IndexEntry(nil), es...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Date.After(es[j].Date) })
	var projects []string
	groups := map[string][]IndexEntry{}
	for _, e := range es {
		if _, ok := groups[e.Project]; !ok {
			projects = append(projects, e.Project)
		}
		groups[e.Project] = append(groups[e.Project], e)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="%s">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="sesstool">
<link rel="icon" href="data:,">
<title>Sessions</title>
<style>%s</style>
</head>
<body>
<header><h1>%s</h1>
<form id="filters" role="search" aria-label="Filter sessions">
<label>Text <input id="q" type="search" placeholder="title, id, model…"></label>
<label>Project <select id="proj"><option value="">All projects (%d)</option>`,
		html.EscapeString(IndexCSP), indexCSS, Plural(len(es), "session"), len(projects))
	for _, p := range projects {
		fmt.Fprintf(bw, `<option value="%s">%s</option>`, esc(p), esc(projectName(p)))
	}
	bw.WriteString(`</select></label>
<label>From <input id="from" type="date"></label>
<label>To <input id="to" type="date"></label>
<output id="count" aria-live="polite"></output>
</form></header>
<main><table id="ix"><caption>Sessions by project, newest first; dates in UTC</caption><thead><tr>`)
	for _, c := range indexColumns {
		fmt.Fprintf(bw, `<th scope="col" class="%s" data-k="%s" aria-sort="none"><button type="button">%s</button></th>`, c.cls, c.key, c.name)
	}
	bw.WriteString(`</tr></thead>`)
	for _, p := range projects {
		fmt.Fprintf(bw, "\n<tbody data-project=\"%s\"><tr class=\"group\"><th colspan=\"%d\" scope=\"colgroup\"><span class=\"path\">%s</span> <span class=\"n\">%s</span></th></tr>\n",
			esc(p), len(indexColumns), esc(projectName(p)), Plural(len(groups[p]), "session"))
		for _, e := range groups[p] {
			indexRow(bw, e)
		}
		bw.WriteString("</tbody>")
	}
	bw.WriteString("</table><p id=\"none\" hidden>No session matches.</p></main>\n<script>" + indexJS + "</script>\n</body></html>\n")
	return bw.Flush()
}

// projectName is how a group is headed: a session with no recorded
// working directory is in none.
func projectName(p string) string {
	if p == "" {
		return "(no project recorded)"
	}
	return p
}

func indexRow(w *bufio.Writer, e IndexEntry) {
	date, sortDate, day := "—", "", ""
	if !e.Date.IsZero() {
		u := e.Date.UTC()
		date, sortDate, day = u.Format("2006-01-02 15:04"), u.Format(time.RFC3339Nano), u.Format("2006-01-02")
	}
	cell := func(key, label, sortVal, inner, cls string) {
		fmt.Fprintf(w, `<td data-k="%s" data-label="%s" data-v="%s"%s>%s</td>`, key, label, esc(sortVal), cls, inner)
	}
	unknown := `<span class="unk" title="not recorded">—</span>`
	fmt.Fprintf(w, `<tr data-day="%s">`, day)
	cell("date", "Date", sortDate, esc(date), ` class="date"`)
	sub := esc(e.ID)
	if len(e.Models) > 0 {
		sub += ` · ` + esc(strings.Join(e.Models, ", "))
	}
	cell("title", "Title", strings.ToLower(e.Title), `<a href="`+esc(pageURL(e.Href))+`">`+esc(e.Title)+`</a><div class="id">`+sub+`</div>`, "")
	cell("messages", "Messages", strconv.Itoa(e.Messages), Thousands(int64(e.Messages)), ` class="num"`)
	if e.Timed {
		cell("duration", "Duration", strconv.FormatInt(int64(e.Duration/time.Second), 10), esc(Duration(e.Duration)), ` class="num"`)
	} else {
		cell("duration", "Duration", "-1", unknown, ` class="num"`)
	}
	if e.HasTokens {
		cell("tokens", "Tokens", strconv.FormatInt(e.Tokens, 10), Thousands(e.Tokens), ` class="num"`)
	} else {
		cell("tokens", "Tokens", "-1", unknown, ` class="num"`)
	}
	if e.HasCost {
		cell("cost", "Cost", strconv.FormatFloat(e.Cost, 'f', -1, 64), Money(e.Cost), ` class="num"`)
	} else {
		cell("cost", "Cost", "-1", unknown, ` class="num"`) // sorts below every recorded cost
	}
	w.WriteString("</tr>\n")
}

// Duration spells a session's length to the second, largest unit first:
// 45s, 3m20s, 2h05m.
func Duration(d time.Duration) string {
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	default:
		return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
	}
}

// pageURL is a relative link to a page file: each path segment escaped, so
// a name holding '#', '?' or ':' still links to that file.
func pageURL(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	s := strings.Join(parts, "/")
	if strings.Contains(parts[0], ":") {
		s = "./" + s // a first segment with ':' would read as a scheme
	}
	return s
}
