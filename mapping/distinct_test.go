package mapping

import (
	"regexp"
	"testing"
)

func TestDistinctID(t *testing.T) {
	none := func(string) bool { return false }
	openCode := regexp.MustCompile(`^ses_e03a7a64affe[0-9A-Za-z]{14}$`)
	for _, c := range []struct {
		name, id string
		taken    func(string) bool
		check    func(string) bool
	}{
		{"a UUID stays a UUID", "f487536d-24df-45e3-832d-2955dbb7faf6", none, IsUUID},
		{"an OpenCode id keeps its prefix and time", "ses_e03a7a64affe0wHc2prdw2R2s7", none, openCode.MatchString},
		{"any other id gets -2", "my-session", none, func(s string) bool { return s == "my-session-2" }},
		{"a taken id is passed over", "my-session", func(s string) bool { return s == "my-session-2" }, func(s string) bool { return s == "my-session-3" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := DistinctID(c.id, 2, c.taken)
			if got == c.id || !c.check(got) {
				t.Errorf("DistinctID(%q) = %q", c.id, got)
			}
			if again := DistinctID(c.id, 2, c.taken); again != got {
				t.Errorf("not deterministic: %q then %q", got, again)
			}
			if third := DistinctID(c.id, 3, func(s string) bool { return c.taken(s) || s == got }); third == got {
				t.Errorf("the third copy gets the second's id %q", got)
			}
		})
	}
}
