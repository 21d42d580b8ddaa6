package html

import (
	"bytes"
	"html"
	"path/filepath"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// md renders Markdown with raw HTML off. Raw HTML in a message is shown as
// text (escaped) rather than dropped, because what the user or the model
// wrote matters in a transcript; images are shown as links so that a remote
// URL in a message never makes the page load anything.
var md = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(safeNodes{}, 100))),
)

// formatter emits CSS classes only, never inline styles (the page's CSP has
// no 'unsafe-inline' for styles).
var formatter = chtml.New(chtml.WithClasses(true), chtml.TabWidth(4))

// markdown renders s as HTML.
func markdown(s string) string {
	var b bytes.Buffer
	if err := md.Convert([]byte(s), &b); err != nil {
		return "<pre>" + html.EscapeString(s) + "</pre>"
	}
	return b.String()
}

type safeNodes struct{}

func (safeNodes) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindRawHTML, renderRawInline)
	r.Register(ast.KindHTMLBlock, renderHTMLBlock)
	r.Register(ast.KindFencedCodeBlock, renderFenced)
	r.Register(ast.KindCodeBlock, renderFenced)
	r.Register(ast.KindImage, renderImage)
}

func renderRawInline(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	segs := n.(*ast.RawHTML).Segments
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		w.WriteString(html.EscapeString(string(s.Value(src))))
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	var sb strings.Builder
	for i := 0; i < b.Lines().Len(); i++ {
		s := b.Lines().At(i)
		sb.Write(s.Value(src))
	}
	if b.HasClosure() {
		sb.Write(b.ClosureLine.Value(src))
	}
	w.WriteString("<p class=\"rawhtml\">" + html.EscapeString(sb.String()) + "</p>\n")
	return ast.WalkContinue, nil
}

func renderFenced(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	lang := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(src))
	}
	var sb strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		sb.Write(s.Value(src))
	}
	w.WriteString(highlight(sb.String(), lang, ""))
	return ast.WalkSkipChildren, nil
}

func renderImage(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	img := n.(*ast.Image)
	alt := string(img.Text(src)) //nolint:staticcheck // plain alt text is what we want
	dest := string(img.Destination)
	w.WriteString(`<a class="mdimg" href="` + html.EscapeString(safeURL(dest)) + `">[image: ` + html.EscapeString(alt) + `]</a>`)
	return ast.WalkSkipChildren, nil
}

// safeURL keeps http(s) and relative links and neutralises the rest
// (javascript:, data:, vbscript:).
func safeURL(u string) string {
	l := strings.ToLower(strings.TrimSpace(u))
	if i := strings.IndexAny(l, ":/?#"); i >= 0 && l[i] == ':' && !strings.HasPrefix(l, "http:") && !strings.HasPrefix(l, "https:") && !strings.HasPrefix(l, "mailto:") {
		return "#"
	}
	return u
}

// highlight renders code with chroma classes. lang is a language name; when
// empty, file (a path) picks the lexer by extension; else plain text.
func highlight(code, lang, file string) string {
	plain := "<pre class=\"chroma\"><code>" + html.EscapeString(code) + "</code></pre>\n"
	if len(code) > maxHighlight {
		return plain // tokenising megabytes of output costs seconds and helps nobody
	}
	var lx chroma.Lexer
	if lang != "" {
		lx = lexers.Get(lang)
	}
	if lx == nil && file != "" {
		lx = lexerFor(file)
	}
	if lx == nil {
		return plain
	}
	lx = chroma.Coalesce(lx)
	it, err := lx.Tokenise(nil, code)
	if err != nil {
		return plain
	}
	var b bytes.Buffer
	if err := formatter.Format(&b, chromaStyle, it); err != nil {
		return plain
	}
	return b.String()
}

// maxHighlight is the largest block that gets syntax colours.
const maxHighlight = 256 << 10

var (
	lexerMu    sync.Mutex
	lexerByExt = map[string]chroma.Lexer{}
)

// lexerFor picks a lexer by file name, cached by extension: chroma's
// lookup tries every lexer's globs, which is slow across thousands of reads.
func lexerFor(file string) chroma.Lexer {
	ext := strings.ToLower(filepath.Ext(file))
	if ext == "" {
		return lexers.Match(filepath.Base(file))
	}
	lexerMu.Lock()
	defer lexerMu.Unlock()
	lx, ok := lexerByExt[ext]
	if !ok {
		lx = lexers.Match("x" + ext)
		lexerByExt[ext] = lx
	}
	return lx
}
