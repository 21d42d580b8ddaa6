package html

import (
	"strconv"
	"strings"
)

// diffHTML shows an edit as a line diff: common lines plain, removed lines
// marked -, added lines +, each numbered in the old and the new text (the
// numbers are not selectable, so a copy is the text alone). It uses a longest-common-subsequence table, so it
// is limited to edits of moderate size; larger ones show old then new.
func diffHTML(out *buf, old, neu string) {
	a, b := strings.Split(old, "\n"), strings.Split(neu, "\n")
	out.WriteString(`<pre class="diff">`)
	on, nn := 0, 0 // line numbers in the old and the new text
	var num [20]byte
	ln := func(n int) {
		out.WriteString(`<span class="ln" data-n="`)
		if n > 0 {
			out.Write(strconv.AppendInt(num[:0], int64(n), 10))
		}
		out.WriteString(`"></span>`)
	}
	line := func(cls, mark, s string) {
		o, n := 0, 0
		if cls != "add" {
			on++
			o = on
		}
		if cls != "del" {
			nn++
			n = nn
		}
		out.WriteString(`<span class="`)
		out.WriteString(cls)
		out.WriteString(`">`)
		ln(o)
		ln(n)
		out.WriteString(mark)
		out.text(s)
		out.WriteString("\n</span>")
	}
	if len(a)*len(b) > 4_000_000 {
		for _, s := range a {
			line("del", "-", s)
		}
		for _, s := range b {
			line("add", "+", s)
		}
		out.WriteString(`</pre>`)
		return
	}
	// Equal lines are taken as they come, so a common prefix is shown as
	// it is, and the table is needed only for what follows it.
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		line("ctx", " ", a[p])
		p++
	}
	a, b = a[p:], b[p:]
	// lcs(i, j) = length of the LCS of a[i:] and b[j:], in one flat table
	w := len(b) + 1
	table := make([]int32, (len(a)+1)*w)
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
			line("ctx", " ", a[i])
			i++
			j++
		case i < len(a) && (j == len(b) || lcs(i+1, j) >= lcs(i, j+1)):
			line("del", "-", a[i])
			i++
		default:
			line("add", "+", b[j])
			j++
		}
	}
	out.WriteString(`</pre>`)
}
