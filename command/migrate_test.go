package command

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/tree/migrate"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// testDoubleTree stands in for the tree layout (format/tree), so the command
// can be tested on its own: it detects a file by its header, validates JSON
// syntax only, and migrates with migrate.Tree, as the real layout delegates.
// The CLI scripts (testdata/script/migrate*.txtar) test the real layout.
type testDoubleTree struct{}

func (testDoubleTree) Name() string      { return "tree" }
func (testDoubleTree) Aliases() []string { return []string{"pi"} }
func (testDoubleTree) Detect(p string) bool {
	return bytes.HasPrefix(format.Head(p, 64), []byte(`{"type":"session"`))
}
func (testDoubleTree) DetectHead(h []byte) bool {
	return bytes.HasPrefix(h, []byte(`{"type":"session"`))
}
func (testDoubleTree) ValidateReader(string, io.Reader, *report.Report, format.ValidateOptions) error {
	return nil
}
func (testDoubleTree) OpenReader(string, io.Reader) (session.Reader, error)         { return nil, io.EOF }
func (testDoubleTree) WriteTo(io.Writer, session.Reader, format.WriteOptions) error { return io.EOF }
func (testDoubleTree) Sessions(p string) ([]format.Ref, error)                      { return []format.Ref{{Path: p}}, nil }
func (testDoubleTree) Open(format.Ref) (session.Reader, error)                      { return nil, io.EOF }
func (testDoubleTree) Validate(p string, rep *report.Report, _ format.ValidateOptions) error {
	fh, err := os.Open(p)
	if err != nil {
		return err
	}
	defer fh.Close()
	lr := jsonl.NewReader(fh)
	for {
		l, err := lr.Next()
		if err != nil {
			return nil
		}
		if col, msg, bad := jsonx.SyntaxError(l.Bytes); bad && len(bytes.TrimSpace(l.Bytes)) > 0 {
			rep.Add(report.Finding{Path: p, Line: l.N, Column: col, Severity: report.Error, Rule: "json-syntax", Message: msg})
		}
	}
}
func (d testDoubleTree) m() migrate.Tree {
	return migrate.Tree{Validate: func(p string, rep *report.Report) error { return d.Validate(p, rep, format.ValidateOptions{}) }}
}
func (d testDoubleTree) Versions() []string               { return d.m().Versions() }
func (d testDoubleTree) Version(p string) (string, error) { return d.m().Version(p) }
func (d testDoubleTree) Migrate(p, to string, o format.MigrateOptions) (format.MigrateResult, error) {
	return d.m().Migrate(p, to, o)
}

func withDoubleTree(t *testing.T) {
	old := registry.All
	registry.All = []format.Format{testDoubleTree{}}
	t.Cleanup(func() { registry.All = old })
}

func copyTo(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateCommand(t *testing.T) {
	withDoubleTree(t)
	dir := t.TempDir()
	td := "../format/tree/migrate/testdata/"
	copyTo(t, td+"v1-compaction.jsonl", filepath.Join(dir, "a", "one.jsonl"))
	copyTo(t, td+"v3-custom.jsonl", filepath.Join(dir, "a", "three.jsonl"))
	copyTo(t, td+"v1-malformed.jsonl", filepath.Join(dir, "b", "bad.jsonl"))
	copyTo(t, td+"v2-hook.jsonl", filepath.Join(dir, "b", "two.jsonl"))
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, StderrIsTerminal: func() bool { return false }}
	err := Migrate(env, MigrateOptions{Paths: []string{dir}})
	if Code(err) != ExitInvalid {
		t.Fatalf("exit %d (%v), want 1 for the invalid file", Code(err), err)
	}
	want := []string{
		filepath.Join(dir, "a/one.jsonl") + ": migrated 1 -> 3, backup " + filepath.Join(dir, "a/one.jsonl.bak"),
		filepath.Join(dir, "a/three.jsonl") + ": already at version 3, not touched",
		filepath.Join(dir, "b/two.jsonl") + ": migrated 2 -> 3, backup " + filepath.Join(dir, "b/two.jsonl.bak"),
	}
	if got := strings.Split(strings.TrimSpace(out.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stdout:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
	}
	if !strings.Contains(errb.String(), "bad.jsonl:3:") || !strings.Contains(errb.String(), "not valid, not migrated") {
		t.Errorf("stderr does not name the bad line:\n%s", errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "b", "bad.jsonl.bak")); err == nil {
		t.Errorf("a refused file got a backup")
	}

	// A refused step down is a usage error; it is still reported per file.
	out.Reset()
	errb.Reset()
	err = Migrate(env, MigrateOptions{To: "1", NoBackup: true, Paths: []string{filepath.Join(dir, "b", "two.jsonl")}})
	if Code(err) != ExitUsage || !strings.Contains(errb.String(), "refused: version 3 to 1") && !strings.Contains(errb.String(), "refused: version 2 to 1") {
		t.Errorf("downgrade to 1: exit %d, stderr %q", Code(err), errb.String())
	}

	// -o FILE with several sessions is a usage error; --in-place with -o too.
	if err := Migrate(env, MigrateOptions{Out: filepath.Join(dir, "x.jsonl"), Paths: []string{dir}}); Code(err) != ExitUsage {
		t.Errorf("-o FILE with many sessions: exit %d", Code(err))
	}
	if err := Migrate(env, MigrateOptions{Out: "x", InPlace: true, Paths: []string{dir}}); Code(err) != ExitUsage {
		t.Errorf("--in-place with -o: exit %d", Code(err))
	}
}

func TestMigrateStdin(t *testing.T) {
	withDoubleTree(t)
	in, err := os.ReadFile("../format/tree/migrate/testdata/v2-hook.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../format/tree/migrate/testdata/v3-custom.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := &Env{Stdin: bytes.NewReader(in), Stdout: &out, Stderr: &errb, StdinIsData: func() bool { return true }}
	if err := Migrate(env, MigrateOptions{}); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("stdin filter output differs from v3-custom.jsonl:\n%s", out.String())
	}
	if !strings.Contains(errb.String(), "<stdin>: migrated 2 -> 3") {
		t.Errorf("stderr: %q", errb.String())
	}
}
