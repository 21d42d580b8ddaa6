package transcript_test

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/sesstool/sesstool/export/transcript"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// sameSkeleton checks that Compact keeps exactly what Skeleton keeps of es,
// with and without Results.
func sameSkeleton(t *testing.T, name string, es []*session.Entry) {
	t.Helper()
	for _, results := range []bool{false, true} {
		want := transcript.Skeleton{Results: results}
		var got transcript.Compact
		if results {
			got.Results()
		}
		for _, e := range es {
			want.Add(e)
			got.Add(e)
		}
		if got.Len() != len(es) {
			t.Errorf("%s: Len %d, want %d", name, got.Len(), len(es))
		}
		ge := got.Entries()
		if len(ge) != len(want.Entries) {
			t.Fatalf("%s (results %v): %d entries, want %d", name, results, len(ge), len(want.Entries))
		}
		for i := range ge {
			if !reflect.DeepEqual(ge[i], want.Entries[i]) {
				t.Errorf("%s (results %v): entry %d (%s)\n got %+v %+v\nwant %+v %+v", name, results, i, want.Entries[i].ID,
					ge[i], msg(ge[i]), want.Entries[i], msg(want.Entries[i]))
				return
			}
		}
	}
}

// The compact skeleton is the Skeleton's, entry for entry: on the export
// fixture, on hand-made edge cases, and on every sample of every layout
// (the project's testdata and the shared real sessions).
func TestCompactSameAsSkeleton(t *testing.T) {
	sameSkeleton(t, "fixture", fixture.Session().Entries)
	at := session.Time{T: time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("x", 3600)), Raw: "kept out"}
	total := int64(7)
	sameSkeleton(t, "edge cases", []*session.Entry{
		// a first user message without text keeps the title open
		{Kind: session.KindMessage, Type: "message", ID: "u0", Time: at, Message: &session.Message{Role: session.RoleUser,
			Content: []session.Block{{Type: session.BlockImage, Data: "AA=="}}}},
		{Kind: session.KindMessage, Type: "message", ID: "u1", ParentID: "u0", Message: &session.Message{Role: session.RoleUser,
			Content: []session.Block{{Type: session.BlockText, Text: "the title"}}}},
		{Kind: session.KindMessage, Type: "message", ID: "a1", ParentID: "u1", Time: at, Sidechain: "run", Source: session.Source{Origin: "tree", Line: 9},
			Message: &session.Message{Role: session.RoleAssistant, Provider: "p", Model: "m",
				Usage:   &session.Usage{Input: 1, Output: 2, CacheRead: 3, CacheWrite: 4, Reasoning: 5, Total: &total, Cost: &session.Cost{Input: 9, Total: 0.5}},
				Content: []session.Block{{Type: session.BlockText, Text: "x"}, {Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "bash"}, {Type: session.BlockToolCall, ToolCallID: "c2", ToolName: "read"}}}},
		{Kind: session.KindMessage, ID: "r1", ParentID: "a1", Message: &session.Message{Role: session.RoleTool, ToolCallID: "c1"}},
		{Kind: session.KindMessage, ID: "r2", ParentID: "a1", Message: &session.Message{Role: session.RoleTool, ToolCallID: "c2"}},
		{Kind: session.KindMessage, ID: "u2", ParentID: "r2", Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "later"}}}},
		{Kind: session.KindCustomMessage, ID: "cm", ParentID: "u2", Message: &session.Message{Role: session.RoleCustom, CustomType: "note"}},
		{Kind: session.KindLabel, ID: "l1", ParentID: "cm", Label: &session.Label{TargetID: "u1", Label: "start"}},
		{Kind: session.KindMessage, ID: "a2", ParentID: "l1", Message: &session.Message{Role: session.RoleAssistant, Usage: &session.Usage{Input: 1}}},
		{Kind: session.KindMessage, ID: "a3", ParentID: "", Message: &session.Message{Role: session.RoleAssistant}},
		{Kind: session.KindMessage, ID: "", ParentID: "a3", Message: &session.Message{Role: session.RoleAssistant}},
		{Kind: session.KindSessionInfo, ID: "t", ParentID: "", Title: "named"},
		{Kind: session.KindMessage, ID: "odd", ParentID: "t", Title: "a message with a title is kept whole", Message: &session.Message{Role: session.RoleUser}},
	})
	n := 0
	for _, f := range registry.All {
		if f.Name() == "fake" {
			continue
		}
		dirs := []string{filepath.Join("..", "..", "testdata", "samples", f.Name())}
		if d := filepath.Join(shared.Dir(), "samples"); exists(d) {
			dirs = append(dirs, d)
		}
		for _, dir := range dirs {
			if !exists(dir) {
				continue
			}
			units, _ := pipeline.Walk(dir, f)
			for _, u := range units {
				refs, err := f.Sessions(u.Path)
				if err != nil {
					continue // not this layout's
				}
				for _, ref := range refs {
					r, err := f.Open(ref)
					if err != nil {
						continue
					}
					s, err := session.ReadAll(r)
					if err != nil {
						continue // an invalid sample: nothing to keep
					}
					sameSkeleton(t, u.Path, s.Entries)
					n++
				}
			}
		}
	}
	t.Logf("%d sessions compared", n)
	if n == 0 {
		t.Error("no sample was read: the layouts' samples are missing")
	}
}

func msg(e *session.Entry) any {
	if e.Message == nil {
		return nil
	}
	return *e.Message
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// Keeping a session's skeleton costs a fraction of what Skeleton kept:
// 20,000 assistant messages with usage and a tool call, and their results.
func TestCompactMemory(t *testing.T) {
	es := make([]*session.Entry, 0, 40000)
	for i := range 20000 {
		id := func(p string) string { return p + string(rune('a'+i%26)) + time.Duration(i).String() }
		es = append(es, &session.Entry{Kind: session.KindMessage, Type: "message", ID: id("a"), ParentID: id("r"), Time: session.Time{T: time.Unix(int64(i), 0).UTC()},
			Message: &session.Message{Role: session.RoleAssistant, Provider: "anthropic", Model: "claude", Usage: &session.Usage{Input: int64(i), Cost: &session.Cost{Total: 1}},
				Content: []session.Block{{Type: session.BlockToolCall, ToolCallID: id("call"), ToolName: "bash"}}}},
			&session.Entry{Kind: session.KindMessage, Type: "message", ID: id("r"), ParentID: id("a"), Message: &session.Message{Role: session.RoleTool, ToolCallID: id("call")}})
	}
	heap := func(add func()) int64 {
		runtime.GC()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		add()
		runtime.GC()
		runtime.ReadMemStats(&b)
		return int64(b.HeapAlloc) - int64(a.HeapAlloc) // signed: the heap may shrink
	}
	var sk transcript.Skeleton
	var c transcript.Compact
	old := heap(func() {
		for _, e := range es {
			sk.Add(e)
		}
	})
	now := heap(func() {
		for _, e := range es {
			c.Add(e)
		}
	})
	runtime.KeepAlive(&sk)
	runtime.KeepAlive(&c)
	runtime.KeepAlive(es)
	t.Logf("40,000 entries: Skeleton %d bytes, Compact %d", old, now)
	if now*3 > old {
		t.Errorf("Compact keeps %d bytes, Skeleton %d: want at most a third", now, old)
	}
}
