package session

import (
	"encoding/json"
	"testing"
)

type keeps int

func (k keeps) Unmodelled() int { return int(k) }

// Unknown counts Extras and what a layout's note says it keeps beyond the
// model; a note that keeps nothing of the kind counts nothing.
func TestUnknown(t *testing.T) {
	two := Extras{{Key: "a", Value: json.RawMessage("1")}, {Key: "b", Value: json.RawMessage("2")}}
	cases := []struct {
		name    string
		extra   Extras
		private any
		want    int
	}{
		{"nothing", nil, nil, 0},
		{"extras only", two, nil, 2},
		{"a note on spelling only", nil, struct{ NoHistory bool }{true}, 0},
		{"a note that keeps members", nil, keeps(3), 3},
		{"both", two, keeps(1), 3},
	}
	for _, c := range cases {
		src := Source{Origin: "x", Private: c.private}
		e := Entry{Extra: c.extra, Source: src}
		b := Block{Extra: c.extra, Source: src}
		m := Meta{Extra: c.extra, Source: src}
		if got := e.Unknown(); got != c.want {
			t.Errorf("%s: entry %d, want %d", c.name, got, c.want)
		}
		if got := b.Unknown(); got != c.want {
			t.Errorf("%s: block %d, want %d", c.name, got, c.want)
		}
		if got := m.Unknown(); got != c.want {
			t.Errorf("%s: meta %d, want %d", c.name, got, c.want)
		}
	}
}
