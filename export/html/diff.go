package html

import (
	"strconv"
	"strings"
	"sync"

	"github.com/sesstool/sesstool/jsonx"
)

// diffHTML shows an edit as a line diff: common lines plain, removed lines
// marked -, added lines +, each numbered in the old and the new text (the
// numbers are not selectable, so a copy is the text alone). It uses a longest-common-subsequence table, so it
// is limited to edits of moderate size; larger ones show old then new.
func diffHTML(out *buf, old, neu string) {
	a, b := strings.Split(old, "\n"), strings.Split(neu, "\n")
	out.WriteString(`<pre class="diff">`)
	on, nn := 0, 0 // line numbers in the old and the new text
	dw := newDiffWriter(out)
	line := func(cls int, s string) {
		o, n := 0, 0
		if cls != diffAdd {
			on++
			o = on
		}
		if cls != diffDel {
			nn++
			n = nn
		}
		dw.line(cls, o, n, s)
	}
	if len(a)*len(b) > 4_000_000 {
		for _, s := range a {
			line(diffDel, s)
		}
		for _, s := range b {
			line(diffAdd, s)
		}
		out.WriteString(`</pre>`)
		return
	}
	// Equal lines are taken as they come, so a common prefix is shown as
	// it is, and the table is needed only for what follows it.
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		line(diffCtx, a[p])
		p++
	}
	a, b = a[p:], b[p:]
	// lcs(i, j) = length of the LCS of a[i:] and b[j:], in one flat table,
	// reused from one diff to the next: every cell is written before it is
	// read but the last row and column, which are cleared
	w := len(b) + 1
	tp := lcsTables.Get().(*[]int32)
	if n := (len(a) + 1) * w; cap(*tp) < n {
		*tp = make([]int32, n)
	}
	table := (*tp)[:(len(a)+1)*w]
	clear(table[len(a)*w:])
	for i := range len(a) {
		table[i*w+len(b)] = 0
	}
	lcs := func(i, j int) int32 { return table[i*w+j] }
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				table[i*w+j] = lcs(i+1, j+1) + 1
			} else {
				table[i*w+j] = max(lcs(i+1, j), lcs(i, j+1))
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			line(diffCtx, a[i])
			i++
			j++
		case i < len(a) && (j == len(b) || lcs(i+1, j) >= lcs(i, j+1)):
			line(diffDel, a[i])
			i++
		default:
			line(diffAdd, b[j])
			j++
		}
	}
	if cap(*tp) <= 1<<20 {
		lcsTables.Put(tp) // a huge edit's table is left to the collector
	}
	out.WriteString(`</pre>`)
}

// lcsTables holds diffHTML's tables between diffs.
var lcsTables = sync.Pool{New: func() any { return new([]int32) }}

const (
	diffCtx = iota
	diffDel
	diffAdd
)

// diffWriter writes a diff's lines. A line's markup is written whole,
// already escaped for the data's JSON when out is (diffMarkup): a diff is
// a few spans a line, and escaping each piece as it was written was most
// of a diff's time.
type diffWriter struct {
	out *buf
	mk  *diffMarkup
}

func newDiffWriter(out *buf) diffWriter {
	if out.json {
		return diffWriter{out, &diffJSON}
	}
	return diffWriter{out, &diffPlain}
}

// line writes one line of class cls numbered o in the old text and n in
// the new (0: none).
func (d diffWriter) line(cls, o, n int, s string) {
	out, mk := d.out, d.mk
	out.b = append(out.b, mk.open[cls]...)
	out.b = mk.number(out.b, o)
	out.b = mk.number(out.b, n)
	out.b = append(out.b, mk.mark[cls]...)
	out.text(s)
	out.b = append(out.b, mk.end[cls]...)
}

// diffMarkup is the markup of a diff's line: <ins> added, <del> removed,
// <span> kept, holding its number in the old text and in the new, each an
// <i data-n=N></i> (<i></i> where it has none) the style sheet shows, its
// mark and its text: <ins><i></i><i data-n=12></i>+TEXT\n</ins>. A diff is
// most of a long session's page data (220,000 lines of the 100 MB
// benchmark's), so the markup is kept short: 38 bytes a line of data
// where classed spans took 100.
type diffMarkup struct {
	open, mark, end  [3]string
	noNumber         string // <i></i>
	number1, number2 string // <i data-n= and ></i> around a number
}

// number appends the markup of line number n (0: none).
func (mk *diffMarkup) number(b []byte, n int) []byte {
	if n <= 0 {
		return append(b, mk.noNumber...)
	}
	b = append(b, mk.number1...)
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, mk.number2...)
}

var diffPlain, diffJSON = func() (p, j diffMarkup) {
	esc := func(s string) string { return string(jsonx.AppendEscaped(nil, s)) }
	for cls, tag := range []string{"span", "del", "ins"} {
		p.open[cls] = "<" + tag + ">"
		p.mark[cls] = [...]string{" ", "-", "+"}[cls]
		p.end[cls] = "\n</" + tag + ">"
		j.open[cls], j.mark[cls], j.end[cls] = esc(p.open[cls]), esc(p.mark[cls]), esc(p.end[cls])
	}
	p.noNumber, p.number1, p.number2 = "<i></i>", "<i data-n=", "></i>"
	j.noNumber, j.number1, j.number2 = esc(p.noNumber), esc(p.number1), esc(p.number2)
	return p, j
}()
