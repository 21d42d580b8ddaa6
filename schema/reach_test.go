package schema

import (
	"slices"
	"strings"
	"testing"
)

func TestStringKeywords(t *testing.T) {
	tests := []struct {
		schema, ptr string
		want        []string // nil: judged by type alone
	}{
		{"tree/v3/message.json", "message/content/0/text", nil},
		{"tree/v3/message.json", "message/content/0/thinking", nil},
		{"tree/v3/message.json", "id", []string{"minLength"}},
		{"tree/v3/message.json", "type", []string{"const"}},
		{"tree/v3/line.json", "message/content", nil},
	}
	for _, tt := range tests {
		s, err := Compile(tt.schema)
		if err != nil {
			t.Fatal(err)
		}
		got := StringKeywords(s, strings.Split(tt.ptr, "/"))
		if tt.want == nil && len(got) > 0 || tt.want != nil && !slices.Equal(got, tt.want) {
			t.Errorf("%s at /%s: %q, want %q", tt.schema, tt.ptr, got, tt.want)
		}
	}
}
