package goat_test

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/goat"
	"github.com/sesstool/sesstool/internal/fuzzcheck"
)

// FuzzGoat fuzzes a goat session directory's messages.jsonl, metadata.json
// and transcript.jsonl (absent when empty). The directory is named after
// the samples' session id, as goat names it.
func FuzzGoat(f *testing.F) {
	f.Fuzz(func(t *testing.T, messages, metadata, transcript []byte) {
		dir := filepath.Join(t.TempDir(), "projects", "p", "sessions", "3e7dfd39-96f7-438f-86f9-7f773e6d5295")
		files := map[string][]byte{goat.MessagesFile: messages, goat.MetadataFile: metadata}
		if len(transcript) > 0 {
			files[goat.TranscriptFile] = transcript
		}
		fuzzcheck.WriteFiles(t, dir, files)
		fuzzcheck.Check(t, goat.Format{}, dir)
	})
}
