package mapping

import "testing"

// The tests here build ash-shaped sessions by hand without importing
// format/ash (which imports this package), so they declare its rule as
// that package's init does.
func init() { DeclareMessageLinks("ash") }

func TestLinksMessagesOnlyIsDeclared(t *testing.T) {
	for origin, want := range map[string]bool{"ash": true, "tree": false, "": false, "undeclared": false} {
		if got := LinksMessagesOnly(origin); got != want {
			t.Errorf("LinksMessagesOnly(%q) = %v, want %v", origin, got, want)
		}
	}
}
