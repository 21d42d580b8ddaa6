package model_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/model"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// TestInvalidDumps: each file under testdata/invalid breaks one rule.
// golden/invalid/<name>.txt holds what validate says and what the reader
// says; a dump validate accepts must read without error, and one it refuses
// must not read silently.
func TestInvalidDumps(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.jsonl")
	if len(files) < 8 {
		t.Fatalf("only %d invalid dumps", len(files))
	}
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		t.Run(name, func(t *testing.T) {
			rep := &report.Report{}
			if err := (model.Format{}).Validate(p, rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, f := range rep.Findings() {
				fmt.Fprintln(&b, f.Text())
			}
			_, rerr := readFile(p)
			fmt.Fprintf(&b, "read: %v\n", rerr)
			golden.Assert(t, "invalid/"+name+".txt", []byte(b.String()))
			if rep.Errors() == 0 && rerr != nil {
				t.Errorf("validate accepts the dump but the reader fails: %v", rerr)
			}
			if rep.Findings() == nil {
				t.Errorf("validate finds nothing in a dump made to break a rule")
			}
		})
	}
}

func readFile(p string) (*session.Session, error) {
	r, err := (model.Format{}).Open(format.Ref{Path: p})
	if err != nil {
		return nil, err
	}
	return session.ReadAll(r)
}
