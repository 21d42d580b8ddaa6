package convert

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/session"
)

// prefixed is a layout's minter that insists on "p_" session ids.
type prefixed struct{}

func (prefixed) Keeps(id string) bool                     { return strings.HasPrefix(id, "p_") }
func (prefixed) Session(m *session.Meta, at int64) string { return "p_" + m.ID }
func (prefixed) Distinct(id string, n int) string         { return id + "_" + strconv.Itoa(n) + "x" }

// shapeless is a minter with no shape of its own for distinct ids.
type shapeless struct{ prefixed }

func (shapeless) Distinct() {}

func TestDistinctID(t *testing.T) {
	none := func(string) bool { return false }
	own := format.IDStyle{Minter: prefixed{}}
	for _, c := range []struct {
		name, id string
		style    format.IDStyle
		taken    func(string) bool
		want     string
	}{
		{"a UUID stays a UUID", "f487536d-24df-45e3-832d-2955dbb7faf6", format.IDStyle{}, none, ""},
		{"the minter's own form is derived by it", "p_abc", own, none, "p_abc_2x"},
		{"an id not of the minter's form is not", "abc", own, none, "abc-2"},
		{"a minter that derives no ids is not asked", "p_abc", format.IDStyle{Minter: shapeless{}}, none, "p_abc-2"},
		{"any other id gets -2", "my-session", format.IDStyle{}, none, "my-session-2"},
		{"a taken id is passed over", "my-session", format.IDStyle{}, func(s string) bool { return s == "my-session-2" }, "my-session-3"},
		{"a taken id of the minter's form too", "p_abc", own, func(s string) bool { return s == "p_abc_2x" }, "p_abc_3x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := DistinctID(c.id, 2, c.taken, c.style)
			if got == c.id || c.want != "" && got != c.want || c.want == "" && !spell.IsUUID(got) {
				t.Errorf("DistinctID(%q) = %q, want %q", c.id, got, c.want)
			}
			if again := DistinctID(c.id, 2, c.taken, c.style); again != got {
				t.Errorf("not deterministic: %q then %q", got, again)
			}
			if third := DistinctID(c.id, 3, func(s string) bool { return c.taken(s) || s == got }, c.style); third == got {
				t.Errorf("the third copy gets the second's id %q", got)
			}
		})
	}
}
