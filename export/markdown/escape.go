package markdown

import (
	"bytes"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Everything from a session is hostile: a transcript is pasted into issues
// and opened in viewers that do not sanitise (marked's defaults), where a
// <script> in a prompt would run. So no byte of the session reaches the
// output as HTML. Short fields (title, cwd, model names, ids) are plain
// text; message text stays Markdown, with its HTML shown as text.

// plain escapes s (made one line) so that any CommonMark renderer, GFM's
// autolinks included, shows it as the same text.
func plain(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '<':
			b.WriteString("&lt;")
		case '&':
			b.WriteString("&amp;")
		case '_':
			// inside a word (msg_01, my_proj) it cannot start or end
			// emphasis: ids and paths stay as they are
			if i == 0 || i == len(s)-1 || !alnum(s[i-1]) || !alnum(s[i+1]) {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case '\\', '`', '*', '[', ']', '#', '!', '|', '~', '>', '@':
			b.WriteByte('\\')
			b.WriteByte(c)
		case ':':
			// https://x and www.x would become links (GFM autolinks)
			if strings.HasPrefix(s[i:], "://") {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case '.':
			if i >= 3 && strings.EqualFold(s[i-3:i], "www") {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

// codeSpan shows s (made one line) as inline code, in a backtick run longer
// than any inside it; code spans never hold HTML.
func codeSpan(s string) string {
	s = oneLine(s)
	if s == "" {
		return ""
	}
	n := longerRun(s, 1)
	f := strings.Repeat("`", n)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || n > 1 {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// gfm parses message text the way GitHub and marked will parse the escaped
// text (tables, strikethrough, task lists), so what it calls code is code
// there too. It has no HTML and no autolinks: escaping removes them, and a
// tag that opens an HTML block in the text as written (<style>, <div>)
// would make the lines after it parse otherwise (an indented line is code
// after an HTML block, and part of the paragraph after escaped text).
var gfm = goldmark.New(goldmark.WithParser(parser.NewParser(
	parser.WithBlockParsers(without(parser.DefaultBlockParsers(), parser.NewHTMLBlockParser())...),
	parser.WithInlineParsers(without(parser.DefaultInlineParsers(), parser.NewRawHTMLParser(), parser.NewAutoLinkParser())...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
)), goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))

// without is ps less the parsers of the types of drop.
func without(ps []util.PrioritizedValue, drop ...any) []util.PrioritizedValue {
	var out []util.PrioritizedValue
	for _, p := range ps {
		keep := true
		for _, d := range drop {
			if reflect.TypeOf(p.Value) == reflect.TypeOf(d) {
				keep = false
			}
		}
		if keep {
			out = append(out, p)
		}
	}
	return out
}

// headingShift is how far a heading inside a message is demoted: message
// headings are level 3, so one inside a message is at least level 4.
const headingShift = 3

// safeMarkdown returns message text as Markdown that renders as the author
// meant, except that HTML in it (tags, comments, entities) shows as text, an
// image shows as a link, a link keeps only a web or mail address, headings
// rank below the message's own, and a code fence left open is closed so it
// cannot swallow the rest of the transcript.
func safeMarkdown(s string) string {
	src := []byte(s)
	doc := gfm.Parser().Parse(text.NewReader(src))
	var acts []edit // code kept as it is, heading marks rewritten
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				acts = append(acts, edit{span{seg.Start, seg.Stop}, "", true})
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			if trustedSpan(src, v) {
				for c := v.FirstChild(); c != nil; c = c.NextSibling() {
					if t, ok := c.(*ast.Text); ok {
						acts = append(acts, edit{span{t.Segment.Start, t.Segment.Stop}, "", true})
					}
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			acts = append(acts, demote(src, v)...)
		}
		return ast.WalkContinue, nil
	})
	sort.SliceStable(acts, func(i, j int) bool { return acts[i].start < acts[j].start })
	var out strings.Builder
	pos := 0
	for _, a := range acts {
		if a.start < pos {
			continue
		}
		out.WriteString(escapeProse(src, pos, a.start))
		if a.keep {
			out.Write(src[a.start:a.stop])
		} else {
			out.WriteString(a.text)
		}
		pos = a.stop
	}
	out.WriteString(escapeProse(src, pos, len(src)))
	return closeFence(out.String())
}

type span struct{ start, stop int }

// trustedSpan reports whether every renderer sees code span c as code: one
// on a single line without a pipe. Renderers split table rows into cells
// before they find code spans, and disagree on spans across lines; the text
// of any other span is escaped like prose (in the rare span that is code
// after all, an entity then shows as written, &lt; for <).
func trustedSpan(src []byte, c *ast.CodeSpan) bool {
	first, last := -1, -1
	for n := c.FirstChild(); n != nil; n = n.NextSibling() {
		t, ok := n.(*ast.Text)
		if !ok {
			return false
		}
		if first < 0 {
			first = t.Segment.Start
		}
		last = t.Segment.Stop
	}
	if first < 0 {
		return true
	}
	return !bytes.ContainsAny(src[first:last], "\n\r|")
}

// edit replaces src[start:stop] with text, or keeps it as it is (code).
type edit struct {
	span
	text string
	keep bool
}

// demote rewrites heading h (ATX or setext) as an ATX heading headingShift
// levels lower. Only its marks change; its text is escaped like any prose.
func demote(src []byte, h *ast.Heading) []edit {
	lines := h.Lines()
	if lines.Len() == 0 {
		return nil
	}
	level := min(h.Level+headingShift, 6)
	first := lines.At(0)
	i := first.Start
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i > 0 && src[i-1] == '#' { // ATX: lengthen the opening run
		for i > 0 && src[i-1] == '#' {
			i--
		}
		return []edit{{span: span{i, i}, text: strings.Repeat("#", level-h.Level)}}
	}
	// setext: "#### " before the text, its lines joined, the underline gone
	es := []edit{{span: span{first.Start, first.Start}, text: strings.Repeat("#", level) + " "}}
	for k := 0; k < lines.Len(); k++ {
		seg := lines.At(k)
		end := seg.Start + len(bytes.TrimRight(seg.Value(src), " \t\r\n"))
		next := len(src) // the underline runs to the end of its line
		if k+1 < lines.Len() {
			next = lines.At(k + 1).Start
		} else if nl := bytes.IndexByte(src[end:], '\n'); nl >= 0 {
			if nl2 := bytes.IndexByte(src[end+nl+1:], '\n'); nl2 >= 0 {
				next = end + nl + 1 + nl2
			}
		}
		sep := " "
		if k+1 == lines.Len() {
			sep = ""
		}
		es = append(es, edit{span: span{end, next}, text: sep})
	}
	return es
}

// unsafeLink finds a link destination with its scheme: after "](" (inline)
// or "]:" (a reference definition, wherever a list or quote puts it);
// only http, https and mailto are kept. The scheme may be spelt with
// character references (&#106;avascript:, java&Tab;script:), escaped by
// then to &amp;: a renderer shows those as written, but the colon still
// goes, so no href holds a scheme of any kind but the three.
var unsafeLink = regexp.MustCompile(`\][ \t]*[(:][\s>]*(?:&lt;)?([A-Za-z&][A-Za-z0-9+.\-&;#]*)(\\?:)`)

// escapeProse escapes src[start:stop], which is outside code: < and & as
// entities (so no tag, comment or entity is read as HTML), the ! of an
// image as an entity (it becomes a link), the :// of a bare URL and www.
// (GFM autolinks, whose ends renderers disagree on, could otherwise take
// in a backslash or a backquote that keeps HTML or code apart), and a
// link's scheme other than http, https or mailto (its colon becomes %3A, a
// harmless relative address). A backslash escaping a < & or ! is dropped
// with it: the entity shows the same character, and no renderer can part
// them.
func escapeProse(src []byte, start, stop int) string {
	b := make([]byte, 0, stop-start+16)
	for i := start; i < stop; i++ {
		c := src[i]
		special := c == '<' || c == '&' || c == '!' && i+1 < len(src) && src[i+1] == '['
		if special && i > start && escaped(src, i) {
			b = b[:len(b)-1] // drop the escaping backslash
		}
		switch {
		case c == '<':
			b = append(b, "&lt;"...)
		case c == '&':
			b = append(b, "&amp;"...)
		case special: // ![
			b = append(b, "&#33;"...)
		case c == ':' && bytes.HasPrefix(src[i:stop], []byte("://")) && !escaped(src, i):
			b = append(b, `\:`...)
		case c == '.' && i >= 3 && bytes.EqualFold(src[i-3:i], []byte("www")) && (i == 3 || !alnum(src[i-4])) && !escaped(src, i):
			b = append(b, `\.`...)
		default:
			b = append(b, c)
		}
	}
	return unsafeLink.ReplaceAllStringFunc(string(b), func(m string) string {
		sub := unsafeLink.FindStringSubmatchIndex(m)
		switch strings.ToLower(m[sub[2]:sub[3]]) {
		case "http", "https", "mailto":
			return m
		}
		return m[:sub[4]] + "%3A" + m[sub[5]:]
	})
}

// escaped reports whether src[i] follows an odd run of backslashes (it is
// already a literal character).
func escaped(src []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && src[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// closeFence closes a code fence s leaves open, which would otherwise hold
// every later message of the transcript.
func closeFence(s string) string {
	if !openAtEnd(s) {
		return s
	}
	n := 3
	for _, f := range []string{"`", "~"} {
		if k := maxRun(s, f[0]) + 1; k > n {
			n = k
		}
	}
	for _, f := range []string{"`", "~"} {
		closed := strings.TrimRight(s, "\n") + "\n" + strings.Repeat(f, n) + "\n"
		if !openAtEnd(closed) {
			return closed
		}
	}
	return s
}

// openAtEnd reports whether text written after s would still be inside a
// fenced code block of s.
func openAtEnd(s string) bool {
	if !strings.Contains(s, "```") && !strings.Contains(s, "~~~") {
		return false
	}
	const probe = "sesstool-fence-probe"
	src := []byte(strings.TrimRight(s, "\n") + "\n\n" + probe + "\n")
	doc := gfm.Parser().Parse(text.NewReader(src))
	last := doc.LastChild()
	for last != nil && last.LastChild() != nil && last.Kind() != ast.KindFencedCodeBlock {
		last = last.LastChild() // a fence inside a list or quote
	}
	if fb, ok := last.(*ast.FencedCodeBlock); ok {
		return bytes.Contains(fb.Lines().Value(src), []byte(probe))
	}
	return false
}

func maxRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// longerRun is the length of a backtick run that closes a code span or
// fence around s: no shorter than least, and longer than any run in s.
func longerRun(s string, least int) int {
	n, run := least, 0
	for _, c := range s {
		if c == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	return n
}
