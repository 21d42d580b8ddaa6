package main

import (
	"os"

	"github.com/sesstool/sesstool/internal/testkit/benchdata"
)

// genTree writes a tree JSONL file of about size bytes replicated from sample.
func genTree(sample, out string, size int64, v3 bool) error {
	b, err := os.ReadFile(sample)
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := benchdata.Tree(f, b, size, v3); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
