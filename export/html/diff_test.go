package html

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// diffRef is diffHTML as first written, with the table over every line:
// the shortcut past a common prefix must show the same diff.
func diffRef(out *buf, old, neu string) {
	a, b := strings.Split(old, "\n"), strings.Split(neu, "\n")
	out.WriteString(`<pre class="diff">`)
	on, nn := 0, 0
	num := func(n int) string {
		if n == 0 {
			return "<i></i>"
		}
		return "<i data-n=" + strconv.Itoa(n) + "></i>"
	}
	tags := map[string]string{"ctx": "span", "del": "del", "add": "ins"}
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
		out.WriteString("<" + tags[cls] + ">" + num(o) + num(n) + mark)
		out.text(s)
		out.WriteString("\n</" + tags[cls] + ">")
	}
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

func TestDiffAsTableOverEveryLine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "<x>", "", "é \"q\""}
	text := func(n int) string {
		ls := make([]string, n)
		for i := range ls {
			ls[i] = words[r.IntN(len(words))]
		}
		return strings.Join(ls, "\n")
	}
	cases := [][2]string{{"", ""}, {"a", "a"}, {"a\nb", "a\nb\nc"}, {"a\na\nb", "a\nb"}, {"x\ny", "y\nx"}}
	for range 3000 {
		old := text(r.IntN(12))
		cases = append(cases, [2]string{old, old[:r.IntN(len(old)+1)] + text(r.IntN(6))})
		// a common suffix (a common suffix taken as it comes would
		// align some differently), and both
		tail := text(r.IntN(5))
		cases = append(cases, [2]string{text(r.IntN(8)) + "\n" + tail, text(r.IntN(8)) + "\n" + tail},
			[2]string{old + "\n" + tail, old[:r.IntN(len(old)+1)] + text(r.IntN(6)) + "\n" + tail})
	}
	// a large table, then a small one from the same reused memory
	big := text(400)
	cases = append(cases, [2]string{big, text(300)}, [2]string{"a\nb", "b\na"})
	for _, c := range cases {
		for _, js := range []bool{false, true} {
			got, want := buf{json: js}, buf{json: js}
			diffHTML(&got, c[0], c[1])
			diffRef(&want, c[0], c[1])
			if got.String() != want.String() {
				t.Fatalf("diff of %q and %q:\n got %s\nwant %s", c[0], c[1], got.String(), want.String())
			}
		}
	}
}
