package pipeline

import "testing"

func TestStreams(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"validate", "a.jsonl"}, true},
		{[]string{"--no-color", "migrate", "a.jsonl"}, true},
		{[]string{"convert", "--to", "tree", "x"}, true},
		{[]string{"convert", "--to=pi", "x"}, true},
		{[]string{"convert", "--to", "flat", "x"}, true},
		{[]string{"convert", "--to=goat", "x"}, true},
		{[]string{"convert", "--to", "opencode", "x"}, true},        // a message's files as it is made
		{[]string{"convert", "--to", "ash", "x"}, true},             // read twice, written a line at a time
		{[]string{"convert", "--to", "opencode-export", "x"}, true}, // written a message at a time
		{[]string{"export", "html", "x"}, false},
		{[]string{"info", "x"}, false},
		{nil, false},
	}
	for _, tc := range tests {
		if got := Streams(tc.args); got != tc.want {
			t.Errorf("Streams(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
