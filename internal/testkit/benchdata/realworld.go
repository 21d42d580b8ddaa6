package benchdata

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
)

// The real sessions under the shared folder's real-world/ that the Claude
// Code and Codex benchmarks replicate (bench/run.sh uses the same files).
const (
	ClaudeSample = "claude/marot+spotter__tool_heavy.jsonl"
	CodexSample  = "codex/codemie-ai+codemie-code__rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"
)

// ClaudeBytes is a Claude Code session of about size bytes built in
// memory from ClaudeSample; without the shared folder it skips tb.
func ClaudeBytes(tb testing.TB, size int64) []byte {
	return realWorldBytes(tb, ClaudeSample, size, Claude)
}

// CodexBytes is a Codex rollout of about size bytes built in memory from
// CodexSample; without the shared folder it skips tb.
func CodexBytes(tb testing.TB, size int64) []byte {
	return realWorldBytes(tb, CodexSample, size, Codex)
}

func realWorldBytes(tb testing.TB, rel string, size int64, gen func(io.Writer, []byte, int64) error) []byte {
	tb.Helper()
	p := filepath.Join(shared.Dir(), "real-world", filepath.FromSlash(rel))
	sample, err := os.ReadFile(p)
	if err != nil {
		peers.Need(tb, "real-world session "+p+" not found (set SESSTOOL_SHARED to the shared folder)")
		return nil
	}
	var buf bytes.Buffer
	if err := gen(&buf, sample, size); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
