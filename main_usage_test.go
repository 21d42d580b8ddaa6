package main

import "testing"

// nearest suggests a command or flag for a typo, and nothing for a word
// that is not one.
func TestNearest(t *testing.T) {
	commands := []string{"validate", "migrate", "convert", "export", "info", "schema", "detect"}
	flags := []string{"format", "from", "to", "o", "force", "session"}
	for _, tc := range []struct {
		word  string
		among []string
		want  string
	}{
		{"valdate", commands, "validate"},
		{"vaildate", commands, "validate"}, // two letters swapped: one edit
		{"convret", commands, "convert"},
		{"exprot", commands, "export"},
		{"frobnicate", commands, ""},
		{"fromat", flags, "format"},
		{"ot", flags, "to"},
		{"x", flags, ""}, // one letter is never a typo of another
		{"sesion", flags, "session"},
		{"verbose", flags, ""},
	} {
		if got := nearest(tc.word, tc.among); got != tc.want {
			t.Errorf("nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"ab", "ba", 1}, {"valdate", "validate", 1}, {"fromat", "format", 1},
	} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
