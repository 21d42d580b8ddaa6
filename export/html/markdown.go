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
	r.Register(ast.KindHeading, renderHeading)
	r.Register(ast.KindAutoLink, renderAutoLink)
}

// renderHeading writes a message's own heading three levels down (# is
// h4, ## h5, the rest h6): a prompt is an h2 and a reply an h3, and a
// heading inside one must not outrank them.
func renderHeading(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	level := min(n.(*ast.Heading).Level+3, 6)
	if entering {
		w.WriteString("<h" + string(rune('0'+level)) + ">")
	} else {
		w.WriteString("</h" + string(rune('0'+level)) + ">\n")
	}
	return ast.WalkContinue, nil
}

// renderLink writes a link whose destination is safe; a link to a
// javascript: (or any other refused) URL is its text alone, not a link
// that goes nowhere.
func renderLink(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	l := n.(*ast.Link)
	href, ok := linkTarget(l.Destination)
	if !ok {
		return ast.WalkContinue, nil // the children, the link's text, are rendered as usual
	}
	if !entering {
		w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	w.WriteString(`<a href="` + html.EscapeString(href) + `"`)
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
	if !allowedURL(dest) {
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
	if href, ok := linkTarget(img.Destination); ok {
		w.WriteString(`<a class="mdimg" href="` + html.EscapeString(href) + `">[image: ` + html.EscapeString(alt) + `]</a>`)
	} else {
		w.WriteString(`<a class="mdimg">[image: ` + html.EscapeString(alt) + `]</a>`) // no href: nothing to follow
	}
	return ast.WalkSkipChildren, nil
}

// linkTarget is the href a Markdown link destination dest becomes (its
// backslash escapes and character references resolved, as CommonMark
// says) and whether the page may link to it. The scheme is checked on that
// decoded address, the one the browser follows: checked on dest as written,
// &#106;avascript: would pass as a relative address and then become
// javascript: once resolved.
func linkTarget(dest []byte) (string, bool) {
	decoded := util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(dest)))
	if !allowedURL(string(decoded)) {
		return "", false
	}
	return string(util.URLEscape(decoded, false)), true
}

// allowedURL reports whether u, already decoded, is an http, https or
// mailto address or a relative one. It reads u as a browser's URL parser
// does: tabs and line breaks anywhere are dropped and control characters
// and spaces at either end trimmed (so "java\tscript:" is javascript:).
func allowedURL(u string) bool {
	u = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, u)
	u = strings.ToLower(strings.TrimFunc(u, func(r rune) bool { return r <= ' ' }))
	i := strings.IndexAny(u, ":/?#")
	if i < 0 || u[i] != ':' {
		return true // no scheme: relative
	}
	switch u[:i] {
	case "http", "https", "mailto":
		return true
	}
	return false
}
