package html

import (
	"html"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

var _ util.BufWriter = (*buf)(nil)

// md renders Markdown with raw HTML off. Raw HTML in a message is shown as
// text (escaped) rather than dropped, because what the user or the model
// wrote matters in a transcript; images are shown as links so that a remote
// URL in a message never makes the page load anything.
var md = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(safeNodes{}, 100))),
)

// markdown renders s as HTML.
func markdown(s string) string {
	var b buf
	markdownTo(&b, s)
	return b.String()
}

// markdownTo renders s as HTML into b.
func markdownTo(b *buf, s string) {
	n := len(b.b)
	if err := md.Convert([]byte(s), b); err != nil {
		b.b = b.b[:n]
		b.WriteString("<pre>")
		b.text(s)
		b.WriteString("</pre>")
	}
}

type safeNodes struct{}

func (safeNodes) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindRawHTML, renderRawInline)
	r.Register(ast.KindHTMLBlock, renderHTMLBlock)
	r.Register(ast.KindFencedCodeBlock, renderFenced)
	r.Register(ast.KindCodeBlock, renderFenced)
	r.Register(ast.KindImage, renderImage)
	r.Register(ast.KindLink, renderLink)
	r.Register(ast.KindAutoLink, renderAutoLink)
}

// renderLink writes a link whose destination is safe; a link to a
// javascript: (or any other refused) URL is its text alone, not a link
// that goes nowhere.
func renderLink(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	l := n.(*ast.Link)
	dest := string(l.Destination)
	if safeURL(dest) != dest {
		return ast.WalkContinue, nil // the children, the link's text, are rendered as usual
	}
	if !entering {
		w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	w.WriteString(`<a href="` + html.EscapeString(string(util.URLEscape(l.Destination, true))) + `"`)
	if len(l.Title) > 0 {
		w.WriteString(` title="` + html.EscapeString(string(l.Title)) + `"`)
	}
	w.WriteString(">")
	return ast.WalkContinue, nil
}

func renderAutoLink(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	l := n.(*ast.AutoLink)
	label := string(l.Label(src))
	dest := string(l.URL(src))
	if l.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
		dest = "mailto:" + dest
	}
	if safeURL(dest) != dest {
		w.WriteString(html.EscapeString(label))
		return ast.WalkContinue, nil
	}
	w.WriteString(`<a href="` + html.EscapeString(string(util.URLEscape([]byte(dest), false))) + `">` + html.EscapeString(label) + `</a>`)
	return ast.WalkContinue, nil
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
	var code strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		code.Write(s.Value(src))
	}
	var sb buf
	codeBlock(&sb, code.String(), lang)
	w.Write(sb.b)
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
