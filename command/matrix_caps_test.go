package command

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/mapping"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// The losses a layout's declaration (format.Caps) decides, derived from the
// source session alone: the structure (active path, side runs, file
// snapshots), whole entries of the kinds a layout holds or not, the roles it
// lacks, the thinking and image blocks, and the signatures on blocks. A writer must report exactly
// these; the round-trip table (expectedLoss) lists only what depends on the
// content of fields (a member the model has no slot for, a stop reason the
// target cannot spell, a compaction it cannot place).

func capsOf(t *testing.T, layout string) format.Caps {
	t.Helper()
	f, err := registry.Lookup(layout)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := format.CapsOf(f)
	if !ok {
		t.Fatalf("%s declares no capabilities", layout)
	}
	return c
}

// decided reports whether the declaration alone decides a loss ("kind
// action"). Compactions and extension messages are placed by the writer,
// and "custom-message" is both pi's custom role and an extension message.
func decided(k string) bool {
	kind, _, _ := strings.Cut(k, " ")
	switch loss.Kind(kind) {
	case loss.Branch, loss.OffPath, loss.Sidechain, loss.Checkpoint, loss.Block(session.BlockThinking), loss.Block(session.BlockImage):
		return true
	case loss.Entry(&session.Entry{Kind: session.KindCompaction}), loss.Entry(&session.Entry{Kind: session.KindCustomMessage}), loss.CustomMessage:
		return false
	}
	return strings.HasSuffix(kind, "-entry") || strings.HasSuffix(kind, "-message") || strings.HasSuffix(kind, "-signature")
}

// predict is what converting the sessions to a layout declaring c loses,
// among the decided losses, as "kind action".
func predict(sessions []*session.Session, c format.Caps) map[string]bool {
	out := map[string]bool{}
	for _, s := range sessions {
		predictOne(s, c, out)
	}
	return out
}

func predictOne(s *session.Session, c format.Caps, out map[string]bool) {
	if c.Owns(s.Meta.Origin) {
		return
	}
	add := func(k loss.Kind, a loss.Action) { out[string(k)+" "+string(a)] = true }
	if !c.Checkpoints && len(s.Meta.Checkpoints) > 0 {
		add(loss.Checkpoint, loss.Dropped)
	}
	kept := s.Entries
	if c.Linear {
		conv := mapping.NewConversation(s.Entries)
		kept = nil
		for i, e := range s.Entries {
			switch {
			case conv.OnPath(i):
				kept = append(kept, e)
			case e.Sidechain != "":
				add(loss.Sidechain, loss.Dropped)
			default:
				add(loss.OffPath, loss.Dropped)
			}
		}
		if conv.Branches > 1 {
			add(loss.Branch, loss.Flattened)
		}
	}
	for _, e := range kept {
		if e.Sidechain != "" && !c.Sidechains {
			add(loss.Sidechain, loss.Dropped)
			continue
		}
		switch e.Kind {
		case session.KindCompaction, session.KindCustomMessage:
			continue
		case session.KindMessage:
		default:
			if c.ConvertsKind(e.Kind) {
				add(loss.Entry(e), loss.Converted)
			} else if !c.HoldsKind(e.Kind) {
				add(loss.Entry(e), loss.Dropped)
			}
			continue
		}
		if e.Message == nil {
			continue
		}
		role, ok := predictRole(e.Message.Role, c, add)
		if !ok {
			continue
		}
		for _, b := range e.Message.Content {
			switch {
			case b.Type == session.BlockThinking && !c.HoldsBlock(b.Type):
				add(loss.Block(b.Type), loss.Dropped)
			case b.Type == session.BlockImage && !c.ImagesFor(role):
				add(loss.Block(b.Type), loss.Dropped)
			case b.Type == session.BlockThinking && (b.Signature != "" || b.Redacted) && !c.KeepsSignature(b.Type):
				add(loss.Signature, loss.Dropped)
			case b.Signature != "" && (c.HoldsBlock(b.Type) || c.ConvertsBlock(b.Type)) && !c.KeepsSignature(b.Type):
				add(loss.SignatureOf(b.Type), loss.Dropped)
			}
		}
	}
}

// predictRole is the role a message of role r is written with, false when
// it is dropped.
func predictRole(r session.Role, c format.Caps, add func(loss.Kind, loss.Action)) (session.Role, bool) {
	if alias, ok := c.Alias[r]; ok {
		add(loss.Role(r), loss.Converted)
		return alias, true
	}
	if c.HoldsRole(r) || c.Fallback == "" {
		return r, true
	}
	if c.Fallback == format.FallbackDrop {
		add(loss.Role(r), loss.Dropped)
		return r, false
	}
	add(loss.Role(r), loss.Converted)
	return session.RoleUser, true
}

func keysOf(m map[string]bool) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestMatrixLossPredicted: converting every sample to every other writable
// layout reports exactly the decided losses the target's declaration
// predicts.
func TestMatrixLossPredicted(t *testing.T) {
	if testing.Short() {
		t.Skip("converts every sample to every layout")
	}
	eachPair(t, func(t *testing.T, s sample, to string) {
		src := s.source(t)
		out := t.TempDir() + "/b"
		if isFileLayout(to) {
			out += ".out"
		}
		lr, _ := convertCLI(t, ConvertOptions{From: s.layout, To: to, Out: out, Paths: []string{src}})
		got := map[string]bool{}
		for _, it := range lr.Losses {
			if k := string(it.Kind) + " " + string(it.Action); decided(k) {
				got[k] = true
			}
		}
		want := predict(sessionsOf(t, s.layout, src), capsOf(t, to))
		if d := cmp.Diff(keysOf(want), keysOf(got)); d != "" {
			t.Errorf("decided losses (-predicted by %s's capabilities +reported):\n%s", to, d)
		}
	})
}

// TestDecided: the families the declaration decides are told apart from the
// ones left to the writers.
func TestDecided(t *testing.T) {
	for k, want := range map[string]bool{
		"branch flattened": true, "label-entry dropped": true, "subagent-entry converted": true, "bash-message converted": true,
		"thinking-block dropped": true, "checkpoint dropped": true, "transcript:assistant-entry dropped": true,
		"thinking-signature dropped": true, "text-signature dropped": true, "tool_call-signature dropped": true,
		"compaction-entry dropped": false, "custom_message-entry dropped": false, "custom-message dropped": false,
		"block-field dropped": false, "usage dropped": false, "compaction converted": false, "file-block dropped": false,
	} {
		if got := decided(k); got != want {
			t.Errorf("decided(%q) = %v, want %v", k, got, want)
		}
	}
}
