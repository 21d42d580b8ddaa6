package migrate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// TestValidatorAlongsideWins: where the validator runs alongside the
// rewrite, its findings refuse the file even though the rewrite itself
// succeeds, and nothing is written: in place the file stays as it was,
// with no backup and no temporary file; -o FILE is not created.
func TestValidatorAlongsideWins(t *testing.T) {
	finding := report.Finding{Line: 2, Severity: report.Error, Rule: "schema", Message: "no good"}
	picky := Tree{Validate: func(p string, rep *report.Report) error {
		f := finding
		f.Path = p
		rep.Add(f)
		return nil
	}}
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	orig := read(t, "testdata/v1-compaction.jsonl")
	writeFile(t, p, orig)
	for _, opt := range []format.MigrateOptions{{}, {Out: filepath.Join(dir, "out.jsonl")}, {DryRun: true}} {
		_, err := picky.Migrate(p, "3", opt)
		var inv *format.InvalidError
		if !errors.As(err, &inv) || len(inv.Findings) != 1 || inv.Findings[0].Message != "no good" {
			t.Fatalf("%+v: err = %v, want the validator's finding", opt, err)
		}
	}
	ents, _ := os.ReadDir(dir)
	if !bytes.Equal(read(t, p), orig) || len(ents) != 1 {
		t.Errorf("a refused file was changed or a file was left behind (%d files)", len(ents))
	}
}

// TestValidatorPanicAlongside: a panic in a validator running alongside is
// an error, not the end of the process, and nothing is written.
func TestValidatorPanicAlongside(t *testing.T) {
	boom := Tree{Validate: func(string, *report.Report) error { panic("boom") }}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	_, err := boom.Migrate("testdata/v1-compaction.jsonl", "3", format.MigrateOptions{Out: out})
	if err == nil || !strings.Contains(err.Error(), "internal error") || exists(out) {
		t.Errorf("err = %v, output written %v", err, exists(out))
	}
}

// TestNoCollisionAfterRestart is TestNoCollision where the output can be
// thrown away, so ids are derived without the pre-pass: the id on line 10
// is met only after line 2 was given it, and the rewrite starts again. The
// result is what the pre-pass gives (standard output).
func TestNoCollisionAfterRestart(t *testing.T) {
	sid := "5f1c2b8e-1111-4a2b-9c3d-000000000001"
	clash := session.DerivedID(sid, 2, nil)
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	in := lines(read(t, "testdata/v1-compaction.jsonl"))
	in[9] = setMember(in[9], "id", []byte(`"`+clash+`"`))
	writeFile(t, p, append(bytes.Join(in, []byte("\n")), '\n'))
	want, _ := migrateTo(t, testTree, p, "2", format.MigrateOptions{})
	out := filepath.Join(dir, "out.jsonl")
	if _, err := testTree.Migrate(p, "2", format.MigrateOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, out); !bytes.Equal(got, want) {
		t.Errorf("with the restart:\n%s\nwith the pre-pass:\n%s", got, want)
	}
	if bytes.Contains(lines(want)[1], []byte(clash)) {
		t.Errorf("line 2 was given the id line 10 holds")
	}
}

// TestInvalidBeforeOtherRefusals: an invalid file is refused for being
// invalid (exit 1 in the command) even when the migration could not have
// started anyway, because of an existing backup or -o FILE, as when the
// validator ran before anything else.
func TestInvalidBeforeOtherRefusals(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	writeFile(t, p, read(t, "testdata/v1-malformed.jsonl"))
	writeFile(t, p+".bak", []byte("older original\n"))
	out := filepath.Join(dir, "taken.jsonl")
	writeFile(t, out, []byte("already here\n"))
	for _, opt := range []format.MigrateOptions{{}, {Out: out}} {
		_, err := testTree.Migrate(p, "3", opt)
		var inv *format.InvalidError
		if !errors.As(err, &inv) || inv.Findings[0].Line != 3 {
			t.Errorf("%+v: err = %v, want the finding on line 3", opt, err)
		}
	}
	// A valid file gets the refusal that applies.
	writeFile(t, p, read(t, "testdata/v1-compaction.jsonl"))
	if _, err := testTree.Migrate(p, "3", format.MigrateOptions{}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("valid file, existing .bak: err = %v", err)
	}
}
