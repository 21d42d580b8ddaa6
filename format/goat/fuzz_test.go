package goat_test

import (
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format/goat"
	"github.com/sesstool/sesstool/internal/testkit/fuzzcheck"
)

// FuzzGoat fuzzes a goat session directory's messages.jsonl, metadata.json
// and transcript.jsonl (absent when empty). The directory is named after
// the samples' session id, as goat names it.
// One conversion an input, to the layout the input picks; every layout:
// TestSeedsConvertEverywhere.
func FuzzGoat(f *testing.F) {
	f.Fuzz(func(t *testing.T, messages, metadata, transcript []byte) {
		fuzzcheck.CheckOne(t, goat.Format{}, sessionDir(t, messages, metadata, transcript), messages)
	})
}

// TestSeedsConvertEverywhere: every seed of FuzzGoat that validates
// converts to a valid session in every layout.
func TestSeedsConvertEverywhere(t *testing.T) {
	for _, in := range fuzzcheck.Corpus(t, "FuzzGoat") {
		fuzzcheck.Check(t, goat.Format{}, sessionDir(t, in[0], in[1], in[2]))
	}
}

func sessionDir(t *testing.T, messages, metadata, transcript []byte) string {
	dir := filepath.Join(t.TempDir(), "projects", "p", "sessions", "3e7dfd39-96f7-438f-86f9-7f773e6d5295")
	files := map[string][]byte{goat.MessagesFile: messages, goat.MetadataFile: metadata}
	if len(transcript) > 0 {
		files[goat.TranscriptFile] = transcript
	}
	fuzzcheck.WriteFiles(t, dir, files)
	return dir
}
