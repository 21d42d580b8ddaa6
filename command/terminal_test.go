package command

import "testing"

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain title ü":         "plain title ü",
		"\x1b]0;pwned\x07title": `\x1b]0;pwned\x07title`,
		"a\x1b[2Jb":             `a\x1b[2Jb`,
		"csi \u009b31m":         `csi \x9b31m`,
		"line\nbreak\ttab\x7f":  `line\x0abreak\x09tab\x7f`,
		"bidi \u202egnp.exe":    `bidi \u202egnp.exe`,
		"bad \xff utf8":         `bad \xff utf8`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}
