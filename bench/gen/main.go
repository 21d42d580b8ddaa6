// Command gen writes large, realistic benchmark inputs deterministically by
// replicating real sample lines with fresh ids, so every run of bench/run.sh
// measures the same bytes.
//
//	gen tree-v3 -size 100MB -o big.v3.jsonl SAMPLE.v1.jsonl
//	gen tree-v1 -size 100MB -o big.v1.jsonl SAMPLE.v1.jsonl
//	gen opencode -messages 10000 -parts 50000 -o STORE SAMPLE_STORAGE
//	gen codex -size 1GB -o big.codex.jsonl SAMPLE_ROLLOUT.jsonl
//	gen claude -size 1GB -o big.jsonl SAMPLE_SESSION.jsonl
//	gen claude-store -sessions 2000 -size 2GB -o STORE REAL_CLAUDE_DIR
package main

import (
	"flag"
	"fmt"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"os"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gen tree-v3|tree-v1|opencode|codex|claude|claude-store [flags] SAMPLE")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	size := fs.String("size", "1MB", "target size for tree files (KB, MB, GB)")
	out := fs.String("o", "", "output file or directory")
	msgs := fs.Int("messages", 10000, "OpenCode messages")
	parts := fs.Int("parts", 50000, "OpenCode parts")
	sessions := fs.Int("sessions", 2000, "Claude Code store: sessions")
	fs.Parse(os.Args[2:])
	if *out == "" || fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "gen: need -o OUT and one SAMPLE")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "tree-v3", "tree-v1":
		var n int64
		if n, err = parseSize(*size); err == nil {
			err = genTree(fs.Arg(0), *out, n, os.Args[1] == "tree-v3")
		}
	case "claude":
		var n int64
		if n, err = parseSize(*size); err == nil {
			err = genClaude(fs.Arg(0), *out, n)
		}
	case "claude-store":
		var n int64
		if n, err = parseSize(*size); err == nil {
			err = genClaudeStore(fs.Arg(0), *out, *sessions, n)
		}
	case "opencode":
		err = benchdata.OpenCode(fs.Arg(0), *out, *msgs, *parts)
	case "codex":
		var n int64
		if n, err = parseSize(*size); err == nil {
			err = genCodex(fs.Arg(0), *out, n)
		}
	default:
		err = fmt.Errorf("unknown kind %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for suf, m := range map[string]int64{"KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30} {
		if strings.HasSuffix(s, suf) {
			s, mult = strings.TrimSuffix(s, suf), m
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n * mult, nil
}
