package command

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// fakeLayout stands in for the real readers in these tests: a file holding
// {"fixture-session": ID, "invalid": bool, "note": TEXT} opens as the
// exporters' fixture session with that id, TEXT appended to its first
// message. It lets the export command be tested apart from any layout.
type fakeLayout struct{}

type fakeFile struct {
	ID      string `json:"fixture-session"`
	Invalid bool   `json:"invalid"`
	Note    string `json:"note"`
	// Gate makes the validation wait until the session's first entry has
	// been read (gate.go): it passes only when the two run at once.
	Gate bool `json:"gate"`
	// Grow appends to the file when its session is opened, as an agent
	// still writing it would.
	Grow bool `json:"grow"`
}

func (fakeLayout) Name() string      { return "fake" }
func (fakeLayout) Aliases() []string { return nil }
func (fakeLayout) Detect(p string) bool {
	return fakeLayout{}.DetectHead(format.Head(p, 64))
}
func (fakeLayout) DetectHead(h []byte) bool { return bytes.HasPrefix(h, []byte(`{"fixture-session"`)) }
func (fakeLayout) Sessions(p string) ([]format.Ref, error) {
	return []format.Ref{{Path: p}}, nil
}
func (f fakeLayout) Open(ref format.Ref) (session.Reader, error) {
	fh, err := os.Open(ref.Path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return f.OpenReader(ref.Path, fh)
}
func (fakeLayout) OpenReader(name string, r io.Reader) (session.Reader, error) {
	var ff fakeFile
	if err := json.NewDecoder(r).Decode(&ff); err != nil {
		return nil, err
	}
	s := fixture.Session()
	s.Meta.ID = ff.ID
	s.Entries[0].Message.Content[0].Text += "\n\n" + ff.Note
	if ff.Grow {
		appendTo(name, "\n")
	}
	if ff.Gate {
		return &gatedReader{SliceReader: session.SliceReader{S: s}, name: name}, nil
	}
	return &session.SliceReader{S: s}, nil
}
func (f fakeLayout) Validate(p string, rep *report.Report, opt format.ValidateOptions) error {
	fh, err := os.Open(p)
	if err != nil {
		return err
	}
	defer fh.Close()
	return f.ValidateReader(p, fh, rep, opt)
}
func (fakeLayout) ValidateReader(name string, r io.Reader, rep *report.Report, _ format.ValidateOptions) error {
	var ff fakeFile
	if err := json.NewDecoder(r).Decode(&ff); err != nil || ff.Invalid {
		rep.Errorf(name, 1, "", "schema", "not a valid fake session")
	}
	if ff.Gate && !waitForRead(name) {
		rep.Errorf(name, 1, "", "gate", "validated to the end before the session was read")
	}
	return nil
}
func (fakeLayout) WriteTo(io.Writer, session.Reader, format.WriteOptions) error { return nil }

func init() { registry.All = append(registry.All, fakeLayout{}) }

func writeFake(t *testing.T, dir, name string, ff fakeFile) string {
	t.Helper()
	b, _ := json.Marshal(ff)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func testEnv(stdin string) (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, StdinIsData: func() bool { return stdin != "" }}, &out, &errb
}

func TestExportDerivedName(t *testing.T) {
	dir := t.TempDir()
	in := writeFake(t, dir, "one.fake.jsonl", fakeFile{ID: "s1"})
	for _, kind := range []string{"html", "markdown"} {
		env, out, _ := testEnv("")
		if err := Export(env, ExportOptions{Kind: kind, Paths: []string{in}}); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		want := filepath.Join(dir, "one.fake.html")
		if kind == "markdown" {
			want = filepath.Join(dir, "one.fake.md")
		}
		if strings.TrimSpace(out.String()) != want {
			t.Errorf("%s printed %q, want %q", kind, out.String(), want)
		}
		b, err := os.ReadFile(want)
		if err != nil || !bytes.Contains(b, []byte("zanzibar")) && kind == "markdown" {
			t.Errorf("%s output %s: %v", kind, want, err)
		}
		// a second export refuses to overwrite, --force replaces
		env, _, _ = testEnv("")
		err = Export(env, ExportOptions{Kind: kind, Paths: []string{in}})
		if Code(err) != ExitIO || !strings.Contains(err.Error(), "--force") {
			t.Errorf("%s over an existing file: %v (exit %d), want exit 3 naming --force", kind, err, Code(err))
		}
		env, _, _ = testEnv("")
		if err := Export(env, ExportOptions{Kind: kind, Paths: []string{in}, Force: true}); err != nil {
			t.Errorf("%s --force: %v", kind, err)
		}
	}
}

func TestExportStdoutAndStdin(t *testing.T) {
	dir := t.TempDir()
	in := writeFake(t, dir, "a.jsonl", fakeFile{ID: "s1"})
	env, out, _ := testEnv("")
	if err := Export(env, ExportOptions{Kind: "markdown", Out: "-", Paths: []string{in}}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "# Fix the parser") {
		t.Errorf("-o - wrote %.80q", out.String())
	}
	env, out, _ = testEnv(`{"fixture-session":"piped"}`)
	if err := Export(env, ExportOptions{Kind: "html"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "<!DOCTYPE html>") || !strings.Contains(out.String(), "piped") {
		t.Errorf("stdin export wrote %.80q", out.String())
	}
	env, _, _ = testEnv(`{"fixture-session":"bad","invalid":true}`)
	if err := Export(env, ExportOptions{Kind: "html"}); Code(err) != ExitInvalid {
		t.Errorf("invalid stdin: %v (exit %d), want exit 1", err, Code(err))
	}
}

func TestExportRefusesInvalid(t *testing.T) {
	dir := t.TempDir()
	in := writeFake(t, dir, "bad.jsonl", fakeFile{ID: "s1", Invalid: true})
	env, _, _ := testEnv("")
	err := Export(env, ExportOptions{Kind: "html", Paths: []string{in}})
	if Code(err) != ExitInvalid || !strings.Contains(err.Error(), "does not validate") {
		t.Errorf("got %v (exit %d), want exit 1", err, Code(err))
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.html")); err == nil {
		t.Error("an output was written for an invalid input")
	}
}

func TestExportStore(t *testing.T) {
	store := t.TempDir()
	writeFake(t, store, "a.jsonl", fakeFile{ID: "../../evil"})
	os.Mkdir(filepath.Join(store, "sub"), 0o755)
	writeFake(t, filepath.Join(store, "sub"), "b.jsonl", fakeFile{ID: "s2"})
	out := filepath.Join(t.TempDir(), "pages")
	env, stdout, _ := testEnv("")
	if err := Export(env, ExportOptions{Kind: "html", Out: out, Paths: []string{store}}); err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(stdout.String())
	// one page per session, named by its (sanitised) session id, then the
	// site's index
	want := []string{filepath.Join(out, "evil.html"), filepath.Join(out, "s2.html"), filepath.Join(out, "index.html")}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("wrote %v, want %v", got, want)
	}
	// --session picks one by the id inside the file
	env, stdout, _ = testEnv("")
	if err := Export(env, ExportOptions{Kind: "markdown", Out: "-", Session: "s2", Paths: []string{store}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "**Session:** s2") {
		t.Errorf("--session s2 exported %.200q", stdout.String())
	}
	env, _, _ = testEnv("")
	if err := Export(env, ExportOptions{Kind: "markdown", Out: "-", Paths: []string{store}}); Code(err) != ExitUsage {
		t.Errorf("-o - with two sessions: %v, want exit 2", err)
	}
	env, _, _ = testEnv("")
	if err := Export(env, ExportOptions{Kind: "markdown", Out: "-", Session: "nope", Paths: []string{store}}); Code(err) != ExitUsage {
		t.Errorf("--session nope: %v, want exit 2", err)
	}
}

func TestExportSafeNames(t *testing.T) {
	for in, want := range map[string]string{"../../evil": "evil", "a/b": "a_b", "..": "session", "ok-1.x": "ok-1.x", "/abs/x": "abs_x", "nul\x00x": "nul_x"} {
		if got := pipeline.SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExportRedact(t *testing.T) {
	dir := t.TempDir()
	in := writeFake(t, dir, "s.jsonl", fakeFile{ID: "s1", Note: "my key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx and GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJklmnop"})
	env, out, errb := testEnv("")
	if err := Export(env, ExportOptions{Kind: "markdown", Out: "-", Redact: true, Paths: []string{in}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "AbCdEfGh") || strings.Contains(out.String(), "ghp_0123") || !strings.Contains(out.String(), "[REDACTED]") {
		t.Errorf("secrets not masked: %s", out.String())
	}
	if !strings.Contains(errb.String(), "masked 2 secret(s)") {
		t.Errorf("stderr = %q, want the count of masked secrets", errb.String())
	}
}

func TestExportBadLeaf(t *testing.T) {
	dir := t.TempDir()
	in := writeFake(t, dir, "s.jsonl", fakeFile{ID: "s1"})
	env, _, _ := testEnv("")
	if err := Export(env, ExportOptions{Kind: "html", Out: "-", Leaf: "nope", Paths: []string{in}}); Code(err) != ExitUsage {
		t.Errorf("--leaf nope: %v, want exit 2", err)
	}
	env, out, _ := testEnv("")
	if err := Export(env, ExportOptions{Kind: "markdown", Out: "-", Leaf: "b2", Paths: []string{in}}); err != nil || !strings.Contains(out.String(), "quokka") {
		t.Errorf("--leaf b2: %v; output lacks the b2 branch", err)
	}
}

// A single page is validated while it is read, not before: the fake
// session's validation waits for its reader's first entry.
func TestExportValidatesAlongside(t *testing.T) {
	dir := t.TempDir()
	in := writeFake(t, dir, "gated.jsonl", fakeFile{ID: "s1", Gate: true})
	env, _, errb := testEnv("")
	if err := Export(env, ExportOptions{Kind: "html", Paths: []string{in}}); err != nil {
		t.Fatalf("export html: %v\n%s", err, errb)
	}
	if _, err := os.Stat(filepath.Join(dir, "gated.html")); err != nil {
		t.Errorf("no page: %v", err)
	}
}

// A session file that grows while it is read is read as it was found,
// and export and convert say so, naming the file.
func TestGrownFileIsNamed(t *testing.T) {
	for _, cmd := range []string{"export html", "export markdown", "convert"} {
		dir := t.TempDir()
		in := writeFake(t, dir, "live.jsonl", fakeFile{ID: "s1", Grow: true})
		env, _, errb := testEnv("")
		var err error
		if cmd == "convert" {
			err = Convert(env, ConvertOptions{To: "tree", Out: filepath.Join(dir, "out.jsonl"), Paths: []string{in}})
		} else {
			err = Export(env, ExportOptions{Kind: strings.TrimPrefix(cmd, "export "), Paths: []string{in}})
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, errb)
		}
		// the file grows each time it is opened (a writer may read twice)
		if want := in + ":0: warning: grew by "; !strings.Contains(errb.String(), want) || !strings.Contains(errb.String(), "(grew)") {
			t.Errorf("%s: standard error %q, want %q ... (grew)", cmd, errb, want)
		}
	}
}
