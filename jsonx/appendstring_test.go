package jsonx

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// appendStringRef is AppendString as first written, one byte at a time and
// for strings only: the reference the table-driven, generic version must
// match, for strings and bytes alike.
func appendStringRef(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

var stringCases = []string{"", "plain", "<script>alert('x')</script> & \"more\"", "é ü 日本 🐈",
	"bad \xff utf8 \xe2\x82", "line\u2028sep\u2029para", "\x00\x01\x1f\x7f\b\f\n\r\t\\",
	strings.Repeat("日本", 60) + " end", "\xff\xfe", "\xf0\x9f\x90"}

func TestAppendStringMatchesReference(t *testing.T) {
	for _, s := range stringCases {
		checkAppendString(t, s)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(checkAppendString)
}

func checkAppendString(t *testing.T, s string) {
	want := string(appendStringRef(nil, s))
	if got := string(AppendString(nil, s)); got != want {
		t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
	}
	if got := string(AppendString(nil, []byte(s))); got != want {
		t.Errorf("AppendString([]byte(%q)) = %s, want %s", s, got, want)
	}
	var back string
	if err := json.Unmarshal([]byte(want), &back); err != nil {
		t.Errorf("AppendString(%q) = %s is not JSON: %v", s, want, err)
	}
}

// TestAppendStringEveryByte: each byte value at each place of a word read
// eight bytes at a time is spelled as the reference spells it.
func TestAppendStringEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		for p := 0; p < 17; p++ {
			b := []byte(strings.Repeat("abcdefgh", 3))
			b[p] = byte(c)
			checkAppendString(t, string(b))
		}
	}
}
