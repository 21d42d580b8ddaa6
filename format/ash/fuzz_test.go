package ash_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/ash"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
	"github.com/sesstool/sesstool/report"
	"github.com/tidwall/gjson"
)

// sessionDir writes an ash session directory from fuzzed context.jsonl,
// history.jsonl and state.json (history and state absent when empty),
// named with the key ash computes from state.json, so the key check does
// not reject every input.
func sessionDir(t *testing.T, context, history, state []byte) string {
	get := func(k string) string { return gjson.GetBytes(state, k).String() }
	first, _, _ := bytes.Cut(context, []byte("\n"))
	key := ash.SessionKey(get("provider"), get("chat_id"), get("user_id"), get("thread_id"))
	if gjson.GetBytes(first, "version").String() == "1" {
		key = ash.V1SessionKey(get("provider"), get("chat_id"), get("user_id"), get("thread_id"))
	}
	dir := filepath.Join(t.TempDir(), "sessions", key)
	files := map[string][]byte{ash.ContextFile: context}
	if len(history) > 0 {
		files[ash.HistoryFile] = history
	}
	if len(state) > 0 {
		files[ash.StateFile] = state
	}
	fuzzcheck.WriteFiles(t, dir, files)
	return dir
}

// FuzzAsh: the ash reader and validator never panic, an accepted session
// reads without error and converts to a valid session in the layout the
// input picks (every layout: TestSeedsConvertEverywhere).
func FuzzAsh(f *testing.F) {
	f.Fuzz(func(t *testing.T, context, history, state []byte) {
		fuzzcheck.CheckOne(t, ash.Format{}, sessionDir(t, context, history, state), context)
	})
}

// TestSeedsConvertEverywhere: every seed of FuzzAsh that validates
// converts to a valid session in every layout.
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, in := range fuzzcheck.Corpus(t, "FuzzAsh") {
		fuzzcheck.Check(t, ash.Format{}, sessionDir(t, in[0], in[1], in[2]))
	}
}

// FuzzAshMigrate: migrating a fuzzed (v1) session never panics, and what a
// successful migration writes validates as ash.
func FuzzAshMigrate(f *testing.F) {
	f.Fuzz(func(t *testing.T, context, history, state []byte) {
		dir := sessionDir(t, context, history, state)
		res, err := ash.Format{}.Migrate(dir, ash.Current, format.MigrateOptions{NoBackup: true})
		if err != nil || !res.Changed {
			return
		}
		rep := &report.Report{}
		if err := (ash.Format{}).Validate(res.Written, rep, format.ValidateOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		if rep.Errors() > 0 {
			t.Fatalf("migrated session does not validate: %v", rep.Findings())
		}
	})
}
