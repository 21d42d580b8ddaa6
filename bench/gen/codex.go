package main

import (
	"os"

	"github.com/sesstool/sesstool/internal/testkit/benchdata"
)

// genCodex writes a Codex rollout of about size bytes replicated from sample.
func genCodex(sample, out string, size int64) error {
	b, err := os.ReadFile(sample)
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := benchdata.Codex(f, b, size); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
