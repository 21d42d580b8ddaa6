package main

import (
	"os"

	"github.com/sesstool/sesstool/internal/testkit/benchdata"
)

// genClaude writes a Claude Code session of about size bytes replicated
// from sample (benchdata.Claude).
func genClaude(sample, out string, size int64) error {
	b, err := os.ReadFile(sample)
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := benchdata.Claude(f, b, size); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
