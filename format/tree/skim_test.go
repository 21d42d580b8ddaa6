package tree

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// TestSkimAgreesWithNext: on every round-trip input (v1 included, whose ids
// are derived), Skim gives each entry the same place in the tree as Next:
// line, type, kind, id, parent and a message's role.
func TestSkimAgreesWithNext(t *testing.T) {
	for name, in := range roundTripInputs(t) {
		t.Run(name, func(t *testing.T) {
			full, err := Format{}.OpenReader(name, bytes.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.ReadAll(full)
			if err != nil {
				t.Fatal(err)
			}
			r, _ := Format{}.OpenReader(name, bytes.NewReader(in))
			sk := r.(*reader)
			for i, want := range s.Entries {
				got, err := sk.Skim()
				if err != nil {
					t.Fatalf("entry %d: %v", i, err)
				}
				if got.Origin != want.Origin || got.Line != want.Line || got.Type != want.Type || got.Kind != want.Kind ||
					got.ID != want.ID || got.ParentID != want.ParentID || got.Sidechain != want.Sidechain {
					t.Fatalf("entry %d: skimmed %+v, read %+v", i, got.Source, want.Source)
				}
				if want.Message != nil && (got.Message == nil || got.Message.Role != want.Message.Role || got.Message.SourceRole != want.Message.SourceRole) ||
					want.Message == nil && got.Message != nil && want.Kind != session.KindCustomMessage {
					t.Fatalf("entry %d (line %d): message role differs", i, want.Line)
				}
			}
			if _, err := sk.Skim(); !errors.Is(err, io.EOF) {
				t.Fatalf("after the last entry: %v, want EOF", err)
			}
		})
	}
}

// TestSkimRefusesAsNext: a line that is not an object is the same error.
func TestSkimRefusesAsNext(t *testing.T) {
	in := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/"}` + "\n[1]\n"
	r1, _ := Format{}.OpenReader("x", bytes.NewReader([]byte(in)))
	_, want := r1.Next()
	r2, _ := Format{}.OpenReader("x", bytes.NewReader([]byte(in)))
	_, got := r2.(*reader).Skim()
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Fatalf("Skim: %v; Next: %v", got, want)
	}
}
