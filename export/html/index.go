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
// of every session, sortable by any column and filtered as you type. Like a
// session's page it is self-contained, loads nothing, and its script is
// allowed by hash.

//go:embed index.js
var indexJS string

//go:embed index.css
var indexCSS string

// IndexCSP is the index page's Content-Security-Policy.
var IndexCSP = "default-src 'none'; img-src data:; style-src " + hash(indexCSS) + "; script-src " + hash(indexJS) +
	"; base-uri 'none'; form-action 'none'"

// IndexEntry is one session's row in a site's index.
type IndexEntry struct {
	Href     string // the page's file name, relative to the index
	ID       string
	Title    string
	Date     time.Time // zero when the session says nothing
	Project  string    // the working directory
	Models   []string
	Messages int
	Cost     float64
	HasCost  bool // the session recorded a cost; else Cost is unknown, shown as —
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
	if date.IsZero() {
		for _, e := range t.S.Entries {
			if !e.Time.T.IsZero() {
				date = e.Time.T
				break
			}
		}
	}
	return IndexEntry{Href: href, ID: m.ID, Title: t.Title(), Date: date, Project: m.Cwd, Models: st.Models, Messages: n, Cost: st.Cost, HasCost: st.HasCost}
}

// WriteIndex writes the index page of a site, newest session first.
func WriteIndex(w io.Writer, es []IndexEntry) error {
	es = append([]IndexEntry(nil), es...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Date.After(es[j].Date) })
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
<header><h1>%s</h1><input id="q" type="search" placeholder="Filter by title, project, model…" aria-label="filter sessions"><span id="count" aria-live="polite"></span></header>
<main><table id="ix"><thead><tr>`, html.EscapeString(IndexCSP), indexCSS, Plural(len(es), "session"))
	for _, c := range []struct{ key, name, cls string }{
		{"title", "Title", ""}, {"date", "Date", ""}, {"project", "Project", ""}, {"model", "Model", ""},
		{"messages", "Messages", "num"}, {"cost", "Cost", "num"},
	} {
		fmt.Fprintf(bw, `<th class="%s" data-k="%s" aria-sort="none"><button type="button">%s</button></th>`, c.cls, c.key, c.name)
	}
	bw.WriteString(`</tr></thead><tbody>`)
	for _, e := range es {
		indexRow(bw, e)
	}
	bw.WriteString("</tbody></table><p id=\"none\" hidden>No session matches.</p></main>\n<script>" + indexJS + "</script>\n</body></html>\n")
	return bw.Flush()
}

func indexRow(w *bufio.Writer, e IndexEntry) {
	date, sortDate := "", ""
	if !e.Date.IsZero() {
		date, sortDate = e.Date.UTC().Format("2006-01-02 15:04"), e.Date.UTC().Format(time.RFC3339Nano)
	}
	cell := func(key, sortVal, inner, cls string) {
		fmt.Fprintf(w, `<td data-k="%s" data-v="%s"%s>%s</td>`, key, esc(sortVal), cls, inner)
	}
	w.WriteString(`<tr>`)
	cell("title", strings.ToLower(e.Title), `<a href="`+esc(pageURL(e.Href))+`">`+esc(e.Title)+`</a><div class="id">`+esc(e.ID)+`</div>`, "")
	cell("date", sortDate, esc(date), "")
	cell("project", strings.ToLower(e.Project), esc(e.Project), "")
	model := strings.Join(e.Models, ", ")
	cell("model", strings.ToLower(model), esc(model), "")
	cell("messages", strconv.Itoa(e.Messages), Thousands(int64(e.Messages)), ` class="num"`)
	if e.HasCost {
		cell("cost", strconv.FormatFloat(e.Cost, 'f', -1, 64), Money(e.Cost), ` class="num"`)
	} else {
		cell("cost", "-1", `<span title="not recorded">—</span>`, ` class="num"`) // sorts below every recorded cost
	}
	w.WriteString("</tr>\n")
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
