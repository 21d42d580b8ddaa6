package html

import (
	"os"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/jsonx"
)

// textRuns is text as it was: a JSON-special byte handed the run up to the
// next entity to jsonx.AppendEscaped. BenchmarkText sets the two against
// each other; FuzzText checks text against the definition.
func (w *buf) textRuns(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		for i+8 <= len(s) && plainText8(load8(s, i)) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		if textPlain[s[i]] {
			continue
		}
		var ent string
		switch s[i] {
		case '<':
			ent = "&lt;"
		case '>':
			ent = "&gt;"
		case '&':
			ent = "&amp;"
		case '\'':
			ent = "&#39;"
		case '"':
			ent = "&#34;"
		default:
			if !w.json {
				continue
			}
			j := i + 1
			for j < len(s) && !htmlEscapes[s[j]] {
				j++
			}
			w.b = append(w.b, s[last:i]...)
			w.b = jsonx.AppendEscaped(w.b, s[i:j])
			last, i = j, j-1
			continue
		}
		w.b = append(w.b, s[last:i]...)
		w.b = append(w.b, ent...)
		last = i + 1
	}
	w.b = append(w.b, s[last:]...)
}

// benchText is real session text: a pi sample's lines (JSON, code, prose).
func benchText(b *testing.B) string {
	data, err := os.ReadFile(shared.Sample(b, "pi/pi-mono_before-compaction.v1.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	// and code, as tool output holds it
	for _, f := range []string{"render.go", "tools.go", "page.js", "page.css"} {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, src...)
	}
	return string(data)
}

func TestTextSameAsRuns(t *testing.T) {
	for _, s := range append(texts, "a\tb\n\"c\\d\x01é\xff<'&>\u2028") {
		for _, js := range []bool{false, true} {
			got, want := buf{json: js}, buf{json: js}
			got.text(s)
			want.textRuns(s)
			if got.String() != want.String() {
				t.Errorf("text(%q) json %v = %q, want %q", s, js, got.String(), want.String())
			}
		}
	}
}

// BenchmarkText escapes session text for the page's data (json mode), the
// one pass (text) against handing JSON's runs on (textRuns).
func BenchmarkText(b *testing.B) {
	s := benchText(b)
	for _, f := range []struct {
		name string
		fn   func(*buf, string)
	}{{"one-pass", (*buf).text}, {"runs", (*buf).textRuns}} {
		b.Run(f.name, func(b *testing.B) {
			w := buf{json: true}
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				w.b = w.b[:0]
				f.fn(&w, s)
			}
		})
	}
}
