// Package html renders a session as one self-contained HTML page.
//
// Design: every entry is rendered to an HTML fragment here in Go (Markdown by
// goldmark with raw HTML off, every session string escaped; code blocks are
// escaped text tagged with their language). The fragments, with each entry's
// parent and a one-line snippet for the branch tree, are written as JSON
// through gzip and base64 into a non-executable
// <script type="application/octet-stream"> block; entries are rendered and
// compressed in chunks on every core and written in order (payload.go). The
// page's own script inflates the data with the browser's
// DecompressionStream, draws the branch tree, inserts the messages of the
// selected path in batches as the reader scrolls, and colours each code
// block with the embedded highlight.js when it comes into view (code.go).
// Search runs over the decoded data, not the DOM, so batching never hides a
// match.
//
// A Content-Security-Policy meta tag allows only the page's own style and
// scripts (by SHA-256 hash) and data: images: no remote loads, no inline
// event handlers.
package html

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

// hljsJS is highlight.js (BSD-3-Clause, see vendor/README.md): the page's
// script colours code blocks with it as they scroll into view.
//
//go:embed vendor/highlight.min.js
var hljsJS string

// style is the page's whole stylesheet.
var style = pageCSS

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// CSP is the page's Content-Security-Policy.
var CSP = "default-src 'none'; img-src data:; style-src " + hash(style) + "; script-src " + hash(hljsJS) + " " + hash(pageJS) +
	"; base-uri 'none'; form-action 'none'"

// writePage writes the page around the data's deflated pieces, with what
// a reader without JavaScript sees (pl, plain.go).
func writePage(w io.Writer, t *transcript.Transcript, sp *spill, pl *plain) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	title := t.Title()
	fmt.Fprintf(bw, `<!DOCTYPE html>
<html lang="en" class="nojs"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="%s">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="sesstool">
<link rel="icon" href="data:,">
<title>%s</title>
<style>%s</style>
</head>
<body>
`, html.EscapeString(CSP), esc(title), style)
	header(bw, t, title)
	bw.WriteString(`<div id="layout"><nav id="side" aria-label="branches">
<div id="find"><input id="q" type="search" placeholder="Search all messages" aria-label="search"><button id="prev" type="button" title="previous hit (Shift+Enter)" aria-label="previous hit">↑</button><button id="next" type="button" title="next hit (Enter)" aria-label="next hit">↓</button></div>
<div id="hits" aria-live="polite"></div>
<div id="filters" role="group"><button data-f="default" class="on">Default</button><button data-f="notools">No tools</button><button data-f="user">User</button><button data-f="labeled">Labeled</button><button data-f="all" title="every record, bookkeeping included">All records</button><label title="model and thinking-level changes"><input id="settings" type="checkbox"> settings</label></div>
<div id="tree" role="tree"></div></nav>
<main id="main"><div id="tools"><button id="expand" type="button" title="expand all (e)">expand all</button><button id="collapse" type="button" title="collapse all (c)">collapse all</button></div>`)
	path := pathOf(t)
	cards, inCards := pl.cards(t, path)
	bw.WriteString(`<noscript><p class="nojs-note">Scripts are off: this page shows every prompt of the conversation and its first messages. The whole conversation, the branches and search need JavaScript.</p></noscript>`)
	pl.outline(bw, t, path, inCards)
	bw.WriteString(`<div id="msgs">`)
	bw.WriteString(cards)
	bw.WriteString("</div></main></div>\n")
	bw.WriteString(`<script type="application/octet-stream" id="data">`)
	if err := payload(bw, sp); err != nil {
		return err
	}
	bw.WriteString("</script>\n<script>" + hljsJS + "</script>\n<script>" + pageJS + "</script>\n</body></html>\n")
	return bw.Flush()
}

// buildNode describes entry i; the HTML of a visible entry goes into h.
// t holds the results of the entry's calls.
func buildNode(t *transcript.Transcript, e *session.Entry, i int, h *buf) node {
	n := describeNode(t, e, i, h.args)
	if n.Visible {
		entryHTML(h, t, e, i)
	}
	return n
}

// describeNode is entry i's node without its HTML.
func describeNode(t *transcript.Transcript, e *session.Entry, i int, args *argMemo) node {
	return node{ID: Anchor(e, i), Visible: t.Visible(e), Role: roleOf(e), Snippet: snippet(e, args)}
}

func roleOf(e *session.Entry) string {
	if e.Message != nil {
		if e.Message.Role == session.RoleAssistant {
			for _, b := range e.Message.Content {
				if b.Type == session.BlockText && strings.TrimSpace(b.Text) != "" {
					return "assistant"
				}
			}
			return "assistant-tools"
		}
		if transcript.Injected(e.Message) {
			return "injected" // not a prompt: out of the User filter
		}
		return string(e.Message.Role)
	}
	return string(e.Kind)
}

// snippet is the tree's one-line summary of an entry.
func snippet(e *session.Entry, memo *argMemo) string {
	s := ""
	switch {
	case e.Message != nil:
		m := e.Message
		s = m.Text()
		if m.Role == session.RoleUser {
			s = userSnippet(s) // what the user wrote, not what was injected
		}
		if m.Exec != nil {
			s = "$ " + m.Exec.Command
		}
		if s == "" {
			var calls []string
			for _, b := range m.Content {
				if b.Type == session.BlockToolCall {
					call := b.ToolName
					if a := argSummary(strings.ToLower(b.ToolName), memo.strings(b.Arguments)); a != "" {
						call += ": " + a
					}
					calls = append(calls, call)
				}
			}
			if len(calls) > 0 {
				s = strings.Join(calls, " · ")
			}
		}
	case e.Compaction != nil:
		s = "context compacted"
	case e.BranchSummary != nil:
		s = e.BranchSummary.Summary
	case e.ModelChange != nil:
		s = "→ " + e.ModelChange.ModelID
	case e.Kind == session.KindThinkingLevel:
		s = "→ off"
		if e.ThinkingLevel != nil {
			s = "→ " + *e.ThinkingLevel
		}
	case e.Label != nil:
		s = e.Label.Label
	case e.Kind == session.KindSessionInfo:
		s = "→ " + e.Title
	default:
		s = e.Type
		if n := session.Note(e); n != "" {
			s = n // a record its layout shows as a note: the note says it
		}
	}
	return oneLine(s, 90)
}

// oneLine is strings.Join(strings.Fields(s), " ") cut after max runes with
// "…", reading only as much of s as that needs: the text of a tool result
// can be megabytes.
func oneLine(s string, max int) string {
	out := make([]byte, 0, min(len(s), 4*max))
	n, gap := 0, false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			gap = n > 0
			i += size
			continue
		}
		if n == max {
			return string(out) + "…"
		}
		if gap {
			out = append(out, ' ')
			n++
			gap = false
			if n == max {
				return string(out) + "…"
			}
		}
		out = append(out, s[i:i+size]...)
		n++
		i += size
	}
	return string(out)
}
