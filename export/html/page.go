// Package html renders a session as one self-contained HTML page.
//
// Design: every entry is rendered to an HTML fragment here in Go (Markdown by
// goldmark with raw HTML off, code by chroma with CSS classes, every session
// string escaped). The fragments, with each entry's parent and a one-line
// snippet for the branch tree, are written as JSON through gzip and base64
// into a non-executable <script type="application/octet-stream"> block. The
// page's own script inflates it with the browser's DecompressionStream,
// draws the branch tree, and inserts the messages of the selected path in
// batches as the reader scrolls. Search runs over the decoded data, not the
// DOM, so batching never hides a match. Entries are encoded one at a time
// straight into the compressor, so memory stays near the session's own size.
//
// A Content-Security-Policy meta tag allows only the page's own style and
// script (by SHA-256 hash) and data: images: no remote loads, no inline
// event handlers.
package html

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"runtime"
	"strings"

	"github.com/alecthomas/chroma/v2/styles"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

var chromaStyle = styles.Get("github")

// style is the page's whole stylesheet: ours plus chroma's light and dark
// token colours.
// Each palette is scoped so that a token class one style colours and the
// other does not never leaks across themes.
var style = pageCSS +
	chromaCSS("github", ":root[data-theme=light] ") + chromaCSS("github-dark", ":root[data-theme=dark] ") +
	"@media not (prefers-color-scheme: dark){" + chromaCSS("github", ":root:not([data-theme]) ") + "}\n" +
	"@media (prefers-color-scheme: dark){" + chromaCSS("github-dark", ":root:not([data-theme]) ") + "}\n"

func chromaCSS(name, scope string) string {
	var b strings.Builder
	if err := formatter.WriteCSS(&b, styles.Get(name)); err != nil {
		return ""
	}
	var out strings.Builder
	for _, l := range strings.Split(b.String(), "\n") {
		if i := strings.Index(l, "*/ "); i >= 0 {
			l = l[i+3:]
		}
		// background colours come from our theme variables
		if strings.HasPrefix(l, ".bg ") || strings.HasPrefix(l, ".chroma {") {
			continue
		}
		if l != "" {
			out.WriteString(scope + l + "\n")
		}
	}
	return out.String()
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// CSP is the page's Content-Security-Policy.
var CSP = "default-src 'none'; img-src data:; style-src " + hash(style) + "; script-src " + hash(pageJS) +
	"; base-uri 'none'; form-action 'none'"

// Write renders t as a page.
func Write(w io.Writer, t *transcript.Transcript) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	title := t.Title()
	fmt.Fprintf(bw, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
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
<input id="q" type="search" placeholder="Search all messages" aria-label="search">
<div id="filters" role="group"><button data-f="default" class="on">Default</button><button data-f="notools">No tools</button><button data-f="user">User</button><button data-f="labeled">Labeled</button><button data-f="all">All</button></div>
<div id="hits"></div><div id="tree" role="tree"></div></nav>
<main id="main"><noscript><p>This page needs JavaScript to show the conversation.</p></noscript><div id="msgs"></div><div id="more"></div></main></div>
<script type="application/octet-stream" id="data">`)
	if err := payload(bw, t); err != nil {
		return err
	}
	bw.WriteString("</script>\n<script>" + pageJS + "</script>\n</body></html>\n")
	return bw.Flush()
}

// node is one entry in the embedded data.
type node struct {
	ID      string `json:"id"`
	Parent  int    `json:"p"`           // index of the parent, -1 for a root
	Visible bool   `json:"v,omitempty"` // shown as a message of its own
	Role    string `json:"r"`           // role or kind, for filters and the tree
	Snippet string `json:"t"`           // one line for the tree
	Label   string `json:"l,omitempty"`
	HTML    string `json:"h,omitempty"`
}

// compression is the payload's gzip level. The profile of a 100 MB export
// showed BestCompression's match search taking a fifth of the time for a
// payload about 3% smaller than the default level's.
const compression = gzip.DefaultCompression

func payload(w io.Writer, t *transcript.Transcript) error {
	b64 := base64.NewEncoder(base64.StdEncoding, w)
	gz, err := gzip.NewWriterLevel(b64, compression)
	if err != nil {
		return err
	}
	index := make(map[*session.Entry]int, len(t.S.Entries))
	for i, e := range t.S.Entries {
		index[e] = i
	}
	leaf := -1
	if t.Leaf != nil {
		leaf = index[t.Leaf]
	}
	fmt.Fprintf(gz, `{"leaf":%d,"nodes":[`, leaf)
	enc := json.NewEncoder(gz)
	enc.SetEscapeHTML(false)
	nodes := renderNodes(t, index)
	for i := range t.S.Entries {
		n := <-<-nodes
		if i > 0 {
			gz.Write([]byte{','})
		}
		if err := enc.Encode(n); err != nil {
			return fmt.Errorf("encode entry %d: %w", i, err)
		}
	}
	gz.Write([]byte("]}"))
	if err := gz.Close(); err != nil {
		return err
	}
	return b64.Close()
}

// renderNodes builds each entry's node on every core (syntax colouring is
// most of an export's time) and hands them out in entry order: one channel
// per entry, queued in order, at most a few per core ahead of the encoder.
func renderNodes(t *transcript.Transcript, index map[*session.Entry]int) <-chan chan node {
	workers := runtime.GOMAXPROCS(0)
	out := make(chan chan node, workers*4)
	go func() {
		defer close(out)
		sem := make(chan struct{}, workers)
		for i, e := range t.S.Entries {
			ch := make(chan node, 1)
			out <- ch
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				ch <- buildNode(t, index, e, i)
			}()
		}
	}()
	return out
}

func buildNode(t *transcript.Transcript, index map[*session.Entry]int, e *session.Entry, i int) node {
	n := node{ID: Anchor(e, i), Parent: -1, Visible: t.Visible(e), Role: roleOf(e), Snippet: snippet(e), Label: t.Labels[e.ID]}
	if p := t.Tree.ByID[e.ParentID]; p != nil && e.ParentID != "" && p != e {
		n.Parent = index[p]
	}
	if n.Visible {
		n.HTML = entryHTML(t, e, i)
	}
	return n
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
		return string(e.Message.Role)
	}
	return string(e.Kind)
}

// snippet is the tree's one-line summary of an entry.
func snippet(e *session.Entry) string {
	s := ""
	switch {
	case e.Message != nil:
		m := e.Message
		s = m.Text()
		if m.Exec != nil {
			s = "$ " + m.Exec.Command
		}
		if s == "" {
			var calls []string
			for _, b := range m.Content {
				if b.Type == session.BlockToolCall {
					calls = append(calls, b.ToolName)
				}
			}
			if len(calls) > 0 {
				s = "→ " + strings.Join(calls, ", ")
			}
		}
	case e.Compaction != nil:
		s = "compaction"
	case e.BranchSummary != nil:
		s = "branch summary: " + e.BranchSummary.Summary
	case e.ModelChange != nil:
		s = "model → " + e.ModelChange.ModelID
	case e.Kind == session.KindThinkingLevel:
		s = "thinking level"
		if e.ThinkingLevel != nil {
			s += " → " + *e.ThinkingLevel
		}
	case e.Label != nil:
		s = "label: " + e.Label.Label
	case e.Kind == session.KindSessionInfo:
		s = "title → " + e.Title
	default:
		s = e.Type
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 90 {
		s = string(r[:90]) + "…"
	}
	return s
}
