package opencode

import (
	"fmt"
	"os"
	"testing"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
)

// The export validator reads a message at a time, yet a document that is
// not JSON gets the one finding jsonx.SyntaxError gives for the whole text:
// the same words, line and column, wherever the problem is (cut short,
// a stray or missing character, invalid UTF-8 before or after another
// problem).
func TestExportSyntaxAgreesWithWholeText(t *testing.T) {
	b, err := os.ReadFile("testdata/samples/export/v1.1.34__ses_e03a737e8ffeFPl5pgZjDAnlwG.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][]byte
	for i := 0; i < len(b); i += 41 {
		cases = append(cases, b[:i])
		for _, ins := range []string{"x", ",", "}", "]", "\"", "{", "\xff", " tru", "\n:"} {
			cases = append(cases, join(b[:i], []byte(ins), b[i:]))
		}
		cases = append(cases, join(b[:i], b[i+1:]))
		if i > 50 {
			cases = append(cases, join(b[:i], []byte(","), b[i:len(b)-10], []byte("\xfe"), b[len(b)-10:]))
		}
	}
	n := 0
	for _, c := range cases {
		col, msg, bad := jsonx.SyntaxError(c)
		if !bad {
			continue
		}
		n++
		line, lc := lineCol(c, col)
		rep := &report.Report{}
		validateExport("e.json", c, rep)
		fs := rep.Findings()
		want := fmt.Sprintf("%d:%d %s %s", line, lc, ruleSyntax, msg)
		if len(fs) != 1 || fmt.Sprintf("%d:%d %s %s", fs[0].Line, fs[0].Column, fs[0].Rule, fs[0].Message) != want {
			t.Fatalf("document of %d bytes: findings %v, want one: %s", len(c), fs, want)
		}
	}
	if n < 1000 {
		t.Fatalf("only %d broken documents tried", n)
	}
}

func join(bs ...[]byte) []byte {
	var out []byte
	for _, b := range bs {
		out = append(out, b...)
	}
	return out
}
