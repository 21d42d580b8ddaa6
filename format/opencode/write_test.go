package opencode

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// writeForeign writes foreignSession into out and returns every file it
// wrote: those Write returns, then the messages' and parts' in the order
// written.
func writeForeign(t *testing.T, out string, opt format.WriteOptions) []string {
	t.Helper()
	w, err := writeTree(&session.SliceReader{S: foreignSession()}, out, opt)
	if err != nil {
		t.Fatal(err)
	}
	paths := w.paths()
	w.eachWritten(func(p string, dir bool) {
		if !dir {
			paths = append(paths, p)
		}
	})
	return paths
}

// A session from another layout gets OpenCode ids (descending session,
// ascending messages and parts), the same ones on every run, and a store
// that validates clean.
func TestWriteForeign(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	pa := writeForeign(t, a, format.WriteOptions{})
	writeForeign(t, b, format.WriteOptions{})
	if d := cmp.Diff(treeFiles(t, a), treeFiles(t, b)); d != "" {
		t.Fatalf("output not deterministic:\n%s", d)
	}
	var msgs, parts []string
	for _, p := range pa {
		rel, _ := filepath.Rel(a, p)
		switch {
		case strings.HasPrefix(rel, "session/global/ses_"):
			if !isID("ses", keyOf(p)) {
				t.Errorf("bad session id %s", p)
			}
		case strings.HasPrefix(rel, "message/"):
			msgs = append(msgs, keyOf(p))
		case strings.HasPrefix(rel, "part/"):
			parts = append(parts, keyOf(p))
		}
	}
	if len(msgs) != 3 || len(parts) != 4 {
		t.Fatalf("wrote %d messages and %d parts, want 3 and 4: %v", len(msgs), len(parts), pa)
	}
	for _, ids := range [][]string{msgs, parts} {
		if !sort.StringsAreSorted(ids) {
			t.Errorf("ids not ascending in write order: %v", ids)
		}
	}
	rep := &report.Report{}
	if err := (Format{}).Validate(a, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() != 0 {
		t.Errorf("our store has findings: %+v", rep.Findings())
	}
	// Read back: the tool result is still a result of its call.
	refs, _ := Format{}.Sessions(a)
	s := readAll(t, refs[0])
	if len(s.Entries) != 4 || s.Entries[2].Message.Role != session.RoleTool || s.Entries[2].Message.Text() != "a.txt" {
		t.Errorf("read back %d entries: %+v", len(s.Entries), s.Entries)
	}
}

// Existing files are never replaced without Force; ids that would become
// paths outside the store are refused.
func TestWriteNoClobber(t *testing.T) {
	out := t.TempDir()
	writeForeign(t, out, format.WriteOptions{})
	_, err := convert.Write(Format{}, &session.SliceReader{S: foreignSession()}, out, format.WriteOptions{}, nil)
	if !errors.Is(err, atomicfile.ErrExists) {
		t.Fatalf("second write: %v, want ErrExists", err)
	}
	writeForeign(t, out, format.WriteOptions{Force: true})
	for _, bad := range []string{"../x", "a/b", "x\x00y", ".."} {
		_, err := convert.Write(Format{}, &session.SliceReader{S: foreignSession()}, t.TempDir(), format.WriteOptions{Options: format.OptionValues{OptProject: bad}}, nil)
		if err == nil {
			t.Errorf("project %q accepted", bad)
		}
	}
	s := foreignSession()
	s.Meta.ID = "ses_../../../etc/passwd"
	dir := t.TempDir()
	paths, err := convert.Write(Format{}, &session.SliceReader{S: s}, dir, format.WriteOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if !strings.HasPrefix(p, dir+string(os.PathSeparator)) || strings.Contains(p, "..") {
			t.Errorf("wrote outside the store: %s", p)
		}
	}
}

// The database is opened read-only and immutable: reading and validating
// leave its bytes as they were.
func TestDBUntouched(t *testing.T) {
	for _, db := range []string{"testdata/samples/sqlite/opencode-1.2.1-after-json-migration.db", "testdata/samples/sqlite/opencode-1.18.34.db"} {
		before, _ := os.ReadFile(db)
		refs, err := Format{}.Sessions(db)
		if err != nil || len(refs) < 3 {
			t.Fatalf("%s: %d sessions, %v", db, len(refs), err)
		}
		readAll(t, refs[0])
		Format{}.Validate(db, &report.Report{}, format.ValidateOptions{})
		after, _ := os.ReadFile(db)
		if string(before) != string(after) {
			t.Errorf("%s changed", db)
		}
		entries, _ := os.ReadDir(filepath.Dir(db))
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), "-wal") || strings.HasSuffix(e.Name(), "-shm") {
				t.Errorf("%s left behind", e.Name())
			}
		}
	}
}

// DefaultStore follows $XDG_DATA_HOME (or ~/.local/share): the database when
// there is one, else the JSON tree.
func TestDefaultStore(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	if got, want := (Format{}).DefaultStore(), filepath.Join(dir, "opencode", "storage"); got != want {
		t.Errorf("without db: %s, want %s", got, want)
	}
	os.MkdirAll(filepath.Join(dir, "opencode"), 0o755)
	os.WriteFile(filepath.Join(dir, "opencode", "opencode.db"), nil, 0o644)
	if got, want := (Format{}).DefaultStore(), filepath.Join(dir, "opencode", "opencode.db"); got != want {
		t.Errorf("with db: %s, want %s", got, want)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", dir)
	if got, want := (Format{}).DefaultStore(), filepath.Join(dir, ".local", "share", "opencode", "storage"); got != want {
		t.Errorf("unset: %s, want %s", got, want)
	}
}

// A session goes under the project OpenCode would choose for its directory:
// the root commit of its git repository, else global.
func TestProjectFor(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "root")
	root := git("rev-parse", "HEAD")
	git("commit", "-q", "--allow-empty", "-m", "second")
	if got := ProjectFor(repo); got != root {
		t.Errorf("ProjectFor(repo) = %s, want root commit %s", got, root)
	}
	if got := ProjectFor(t.TempDir()); got != "global" {
		t.Errorf("ProjectFor(plain dir) = %s", got)
	}
	if got := ProjectFor("/no/such/dir"); got != "global" {
		t.Errorf("ProjectFor(missing) = %s", got)
	}
	s := foreignSession()
	s.Meta.Cwd = repo
	out := t.TempDir()
	if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(out, "session", root, "ses_*.json")); len(m) != 1 {
		t.Errorf("session not filed under %s", root)
	}
	if !isFile(filepath.Join(out, "project", root+".json")) {
		t.Error("no project record written")
	}
}

// The export writer refuses to replace a file without Force.
func TestExportWrite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.json")
	for i, force := range []bool{false, false, true} {
		_, err := convert.Write(Export{}, &session.SliceReader{S: foreignSession()}, out, format.WriteOptions{Force: force}, nil)
		if (err != nil) != (i == 1) {
			t.Errorf("write %d (force %v): %v", i, force, err)
		}
	}
	rep := &report.Report{}
	Export{}.Validate(out, rep, format.ValidateOptions{})
	if rep.Errors()+rep.Warnings() != 0 {
		t.Errorf("our export has findings: %+v", rep.Findings())
	}
}

// ash-style results (tool_result blocks in a user message) join their call's
// tool part; what OpenCode cannot hold is counted.
func TestWriteLoss(t *testing.T) {
	s := foreignSession()
	s.Entries = s.Entries[:2] // drop the RoleTool result
	s.Entries = append(s.Entries, &session.Entry{Kind: session.KindMessage, ID: "e3", ParentID: "e2", Source: session.Source{Origin: "ash"}, Time: session.FromMillis(1795235500003),
		Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockToolResult, ToolCallID: "call_1", Text: "boom", IsError: true}}}},
		&session.Entry{Kind: session.KindLabel, ID: "l1", ParentID: "e3", Source: session.Source{Origin: "ash"}, Label: &session.Label{TargetID: "e1", Label: "x"}})
	s.Meta.Extra = session.Extras{{Key: "cwdHash", Value: []byte(`"x"`)}}
	lost := &loss.Counter{}
	out := t.TempDir()
	if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range lost.Items() {
		got = append(got, it.String())
	}
	want := []string{"1 label-entry dropped (OpenCode has message and compaction entries only)", "1 provider dropped (OpenCode keeps no session provider)",
		"1 session-field dropped (OpenCode has no slot for another layout's session fields)", "1 session-model dropped (OpenCode keeps no session model)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("loss (-want +got):\n%s", d)
	}
	refs, _ := Format{}.Sessions(out)
	back := readAll(t, refs[0])
	var res *session.Message
	for _, e := range back.Entries {
		if e.Message != nil && e.Message.Role == session.RoleTool {
			res = e.Message
		}
	}
	if res == nil || !res.IsError || res.Text() != "boom" {
		t.Errorf("tool result = %+v", res)
	}
	if len(back.Entries) != 3 {
		t.Errorf("%d entries read back, want user, assistant, tool result", len(back.Entries))
	}
}

// A session read from a database is filed, in a JSON tree, where OpenCode
// looks for its directory (global, or its repository's root commit), not
// under the database's project id; one read from a JSON tree keeps its
// project.
func TestDBSessionRefiled(t *testing.T) {
	const db = "testdata/samples/sqlite/opencode-1.2.1-after-json-migration.db"
	const sid = "ses_e03a7a64affe0wHc2prdw2R2s7"
	write := func(src, cwd string) (string, *loss.Counter) {
		t.Helper()
		r, err := Format{}.Open(format.Ref{Path: src, ID: sid})
		if err != nil {
			t.Fatal(err)
		}
		s, err := session.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if cwd != "" {
			s.Meta.Cwd = cwd
		}
		out, lost := t.TempDir(), &loss.Counter{}
		if _, err := convert.Write(Format{}, &session.SliceReader{S: s}, out, format.WriteOptions{}, lost); err != nil {
			t.Fatal(err)
		}
		return out, lost
	}
	filed := func(out string) string {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(out, "session", "*", sid+".json"))
		if len(m) != 1 {
			t.Fatalf("session files %v", m)
		}
		b, _ := os.ReadFile(m[0])
		if p := filepath.Base(filepath.Dir(m[0])); !strings.Contains(string(b), `"projectID": "`+p+`"`) {
			t.Errorf("filed under %s, but its projectID says otherwise", p)
		}
		return filepath.Base(filepath.Dir(m[0]))
	}
	out, lost := write(db, "/no/such/dir")
	if p := filed(out); p != "global" {
		t.Errorf("from the database: filed under %s, want global", p)
	}
	if len(lost.Items()) != 0 {
		t.Errorf("losses %v", lost.Items())
	}
	if m, _ := filepath.Glob(filepath.Join(out, "project", "*")); len(m) != 0 {
		t.Errorf("a project record for a project no session is filed under: %v", m)
	}
	// from the JSON tree just written: the project stays
	if out2, _ := write(out, ""); filed(out2) != "global" {
		t.Errorf("tree to tree changed the project")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "root"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
	}
	out, _ = write(db, repo)
	if p, want := filed(out), ProjectFor(repo); p != want || p == "global" {
		t.Errorf("from the database, in a repository: filed under %s, want its root commit %s", p, want)
	}
}

// The files are written as each message is made, so a file found to exist
// part way (without Force) is refused after others are written: they are
// removed again, and the existing file is left as it was.
func TestWriteRefusedPartWayLeavesNothing(t *testing.T) {
	paths := writeForeign(t, t.TempDir(), format.WriteOptions{})
	var last string // a file written after the session's own and a message's
	for _, p := range paths {
		if strings.Contains(p, string(filepath.Separator)+"part"+string(filepath.Separator)) {
			last = p
		}
	}
	if last == "" {
		t.Fatalf("no part file among %v", paths)
	}
	out := t.TempDir()
	// paths[0] is out/session/<project>/<sid>.json: the store's root is three up
	root := filepath.Dir(filepath.Dir(filepath.Dir(paths[0])))
	rel, err := filepath.Rel(root, last)
	if err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(out, rel)
	if err := os.MkdirAll(filepath.Dir(existing), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(existing, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = convert.Write(Format{}, &session.SliceReader{S: foreignSession()}, out, format.WriteOptions{}, nil)
	if !errors.Is(err, atomicfile.ErrExists) {
		t.Fatalf("write: %v, want ErrExists", err)
	}
	var left []string
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != out {
			left = append(left, p)
		}
		return nil
	})
	want := []string{filepath.Join(out, "part"), filepath.Dir(existing), existing}
	if d := cmp.Diff(want, left); d != "" {
		t.Errorf("left behind (-want +got):\n%s", d)
	}
	if b, _ := os.ReadFile(existing); string(b) != "old" {
		t.Errorf("existing file now %q", b)
	}
}
