package migrate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/session"
)

// migrateTo runs the migration of testdata/name to version to with -o -
// and returns the bytes and the result.
func migrateTo(t *testing.T, tr Tree, path, to string, opt format.MigrateOptions) ([]byte, format.MigrateResult) {
	t.Helper()
	var out bytes.Buffer
	opt.Out, opt.Stdout = "-", &out
	res, err := tr.Migrate(path, to, opt)
	if err != nil {
		t.Fatalf("migrate %s to %s: %v", path, to, err)
	}
	return out.Bytes(), res
}

func summary(res format.MigrateResult) []byte {
	var b strings.Builder
	b.WriteString(res.From + " -> " + res.To + "\n")
	for _, c := range res.Changes {
		b.WriteString(c + "\n")
	}
	return []byte(b.String())
}

// TestSteps is the golden test of every step and of composed steps.
func TestSteps(t *testing.T) {
	cases := []struct {
		in, to string
		opt    format.MigrateOptions
	}{
		{"v1-compaction.jsonl", "2", format.MigrateOptions{}},
		{"v1-compaction.jsonl", "3", format.MigrateOptions{}},
		{"v1-compaction-header.jsonl", "2", format.MigrateOptions{}},
		{"v1-compaction-out-of-range.jsonl", "2", format.MigrateOptions{}},
		{"v1-crlf.jsonl", "3", format.MigrateOptions{}},
		{"v1-malformed.jsonl", "3", format.MigrateOptions{SkipInvalid: true}},
		{"v2-hook.jsonl", "3", format.MigrateOptions{}},
		{"v3-custom.jsonl", "2", format.MigrateOptions{}},
	}
	for _, c := range cases {
		name := strings.TrimSuffix(c.in, ".jsonl") + ".to" + c.to
		t.Run(name, func(t *testing.T) {
			got, res := migrateTo(t, testTree, filepath.Join("testdata", c.in), c.to, c.opt)
			if !res.Changed {
				t.Fatalf("Changed = false")
			}
			golden.Assert(t, name+".jsonl", got)
			golden.Assert(t, name+".txt", summary(res))
		})
	}
}

// TestByteFaithful checks, line by line, that a step changes only what it
// must: removing the members it adds and restoring the ones it removes gives
// the input bytes back.
func TestByteFaithful(t *testing.T) {
	in := read(t, "testdata/v1-compaction.jsonl")
	got, _ := migrateTo(t, testTree, "testdata/v1-compaction.jsonl", "2", format.MigrateOptions{})
	inL, gotL := lines(in), lines(got)
	if len(inL) != len(gotL) {
		t.Fatalf("%d lines in, %d out", len(inL), len(gotL))
	}
	for i := range inL {
		g := gotL[i]
		if i == 0 {
			want := append(bytes.TrimSuffix(inL[0], []byte("}")), []byte(`,"version":2}`)...)
			if !bytes.Equal(g, want) {
				t.Errorf("header:\n got %s\nwant %s", g, want)
			}
			continue
		}
		g = deleteMember(deleteMember(deleteMember(g, "id"), "parentId"), "firstKeptEntryId")
		want := inL[i]
		if bytes.Contains(want, []byte("firstKeptEntryIndex")) {
			want = deleteMember(want, "firstKeptEntryIndex")
		}
		if !bytes.Equal(g, want) {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, g, want)
		}
	}
}

// TestRoundTrip32 checks that 3 -> 2 undoes 2 -> 3 byte for byte.
func TestRoundTrip32(t *testing.T) {
	dir := t.TempDir()
	v3 := filepath.Join(dir, "v3.jsonl")
	up, _ := migrateTo(t, testTree, "testdata/v2-hook.jsonl", "3", format.MigrateOptions{})
	writeFile(t, v3, up)
	down, _ := migrateTo(t, testTree, v3, "2", format.MigrateOptions{})
	if want := read(t, "testdata/v2-hook.jsonl"); !bytes.Equal(down, want) {
		t.Errorf("2 -> 3 -> 2 is not the identity:\n%s", down)
	}
	if !bytes.Equal(up, read(t, "testdata/v3-custom.jsonl")) {
		t.Errorf("2 -> 3 of v2-hook differs from v3-custom.jsonl")
	}
}

func TestRefusedDowngrade(t *testing.T) {
	for _, c := range []struct{ in, to string }{
		{"testdata/v2-hook.jsonl", "1"},
		{"testdata/v3-custom.jsonl", "1"},
		{"testdata/v2-hook.jsonl", "4"},
	} {
		_, err := testTree.Migrate(c.in, c.to, format.MigrateOptions{DryRun: true})
		if !errors.Is(err, format.ErrRefusedStep) {
			t.Errorf("%s to %s: err = %v, want a refused step", c.in, c.to, err)
		}
	}
}

// ownSample is the project's own v3 tree sample, written by pi itself.
const ownSample = "../../../testdata/samples/tree/pi-v3-branches.jsonl"

// TestDeterministic migrates two copies of the same file, in place, and
// requires identical bytes.
func TestDeterministic(t *testing.T) {
	for _, in := range []string{"testdata/v1-compaction.jsonl", shared.Sample(t, "pi/pi-mono_before-compaction.v1.jsonl")} {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
		writeFile(t, a, read(t, in))
		writeFile(t, b, read(t, in))
		for _, p := range []string{a, b} {
			if _, err := testTree.Migrate(p, "3", format.MigrateOptions{NoBackup: true}); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(read(t, a), read(t, b)) {
			t.Errorf("%s: two migrations of the same input differ", in)
		}
	}
}

// TestAtTarget checks that a file at the target version is not touched:
// same bytes, same mtime, no backup, also when migrated a second time.
func TestAtTarget(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	writeFile(t, p, read(t, "testdata/v1-compaction.jsonl"))
	if _, err := testTree.Migrate(p, "3", format.MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p + ".bak"); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	before := read(t, p)
	res, err := testTree.Migrate(p, "3", format.MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if res.Changed || !bytes.Equal(read(t, p), before) || !fi.ModTime().Equal(old) || exists(p+".bak") {
		t.Errorf("a v3 file was touched: changed=%v mtime=%v bak=%v", res.Changed, fi.ModTime(), exists(p+".bak"))
	}
}

func TestInPlaceBackup(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	orig := read(t, "testdata/v1-compaction.jsonl")
	writeFile(t, p, orig)
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2021, 5, 6, 7, 8, 9, 0, time.UTC)
	os.Chtimes(p, old, old)
	res, err := testTree.Migrate(p, "3", format.MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := migrateTo(t, testTree, "testdata/v1-compaction.jsonl", "3", format.MigrateOptions{})
	if !bytes.Equal(read(t, p), want) {
		t.Errorf("in place result differs from -o - result")
	}
	if res.Backup != p+".bak" || !bytes.Equal(read(t, p+".bak"), orig) {
		t.Errorf("backup %q missing or not the original", res.Backup)
	}
	fi, _ := os.Stat(p)
	bi, _ := os.Stat(p + ".bak")
	if fi.Mode().Perm() != 0o600 || !bi.ModTime().Equal(old) {
		t.Errorf("mode %v (want 0600), backup mtime %v (want %v)", fi.Mode().Perm(), bi.ModTime(), old)
	}
	// A second migration (3 -> 2) must not overwrite the older backup.
	_, err = testTree.Migrate(p, "2", format.MigrateOptions{})
	if err == nil || !strings.Contains(err.Error(), "already exists") || !bytes.Equal(read(t, p), want) {
		t.Errorf("existing .bak: err = %v; file changed = %v", err, !bytes.Equal(read(t, p), want))
	}
}

func TestNoBackupAndOutFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	orig := read(t, "testdata/v2-hook.jsonl")
	writeFile(t, p, orig)
	out := filepath.Join(dir, "out.jsonl")
	res, err := testTree.Migrate(p, "3", format.MigrateOptions{Out: out})
	if err != nil || res.Written != out {
		t.Fatalf("-o: %v, written %q", err, res.Written)
	}
	if !bytes.Equal(read(t, p), orig) || !bytes.Equal(read(t, out), read(t, "testdata/v3-custom.jsonl")) {
		t.Errorf("-o FILE changed the input or wrote the wrong bytes")
	}
	if _, err := testTree.Migrate(p, "3", format.MigrateOptions{Out: out}); err == nil {
		t.Errorf("-o onto an existing file was not refused")
	}
	if _, err := testTree.Migrate(p, "3", format.MigrateOptions{NoBackup: true}); err != nil {
		t.Fatal(err)
	}
	if exists(p+".bak") || !bytes.Equal(read(t, p), read(t, out)) {
		t.Errorf("--no-backup kept a backup or wrote other bytes")
	}
}

func TestDryRun(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	orig := read(t, "testdata/v1-compaction.jsonl")
	writeFile(t, p, orig)
	res, err := testTree.Migrate(p, "3", format.MigrateOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if !bytes.Equal(read(t, p), orig) || len(ents) != 1 || !res.Changed || res.Written != "" {
		t.Errorf("dry run wrote something: %d files, written %q", len(ents), res.Written)
	}
	golden.Assert(t, "v1-compaction.dry-run.txt", summary(res))
}

// TestRefuseInvalid: a malformed line refuses the file, naming the line,
// and leaves it (and its directory) as they were.
func TestRefuseInvalid(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	orig := read(t, "testdata/v1-malformed.jsonl")
	writeFile(t, p, orig)
	for _, tr := range []Tree{testTree, {}} { // with a validator, and with the migration's own checks
		_, err := tr.Migrate(p, "3", format.MigrateOptions{})
		var inv *format.InvalidError
		if !errors.As(err, &inv) || len(inv.Findings) == 0 || inv.Findings[0].Line != 3 {
			t.Fatalf("err = %v, want an InvalidError naming line 3", err)
		}
		if !strings.Contains(err.Error(), "s.jsonl:3:") {
			t.Errorf("message does not name the line: %v", err)
		}
	}
	ents, _ := os.ReadDir(dir)
	if !bytes.Equal(read(t, p), orig) || len(ents) != 1 {
		t.Errorf("a refused file was changed or a file was left behind (%d files)", len(ents))
	}
}

func TestSkipInvalidListsLines(t *testing.T) {
	_, res := migrateTo(t, testTree, "testdata/v1-malformed.jsonl", "2", format.MigrateOptions{SkipInvalid: true})
	if len(res.Skipped) != 1 || res.Skipped[0] != 3 {
		t.Errorf("Skipped = %v, want [3]", res.Skipped)
	}
}

// TestNoCollision: a derived id that is already in the file is not handed
// out again.
func TestNoCollision(t *testing.T) {
	sid := "5f1c2b8e-1111-4a2b-9c3d-000000000001"
	clash := session.DerivedID(sid, 2, nil)
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	in := lines(read(t, "testdata/v1-compaction.jsonl"))
	// Line 10 carries the id line 2 would get (invalid in v1, but pi overwrites it).
	in[9] = setMember(in[9], "id", []byte(`"`+clash+`"`))
	writeFile(t, p, append(bytes.Join(in, []byte("\n")), '\n'))
	got, _ := migrateTo(t, testTree, p, "2", format.MigrateOptions{})
	out := lines(got)
	seen := map[string]int{}
	for i, l := range out[1:] {
		id := string(bytes.Trim(valueOf(l, "id"), `"`))
		if j, dup := seen[id]; dup {
			t.Errorf("id %s on lines %d and %d", id, j, i+2)
		}
		seen[id] = i + 2
	}
	if seen[clash] != 0 {
		t.Errorf("the id already in the file (%s) was handed out again (line %d)", clash, seen[clash])
	}
}

func TestVersion(t *testing.T) {
	for in, want := range map[string]string{
		"testdata/v1-compaction.jsonl": "1", "testdata/v1-crlf.jsonl": "1",
		"testdata/v2-hook.jsonl": "2", "testdata/v3-custom.jsonl": "3",
	} {
		if got, err := (Tree{}).Version(in); err != nil || got != want {
			t.Errorf("Version(%s) = %q, %v; want %s", in, got, err, want)
		}
	}
}

func valueOf(obj []byte, key string) []byte {
	ms, _ := members(obj)
	if i := find(ms, key); i >= 0 {
		return obj[ms[i].valStart:ms[i].valEnd]
	}
	return nil
}

func lines(b []byte) [][]byte { return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) }

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestLongLines: lines far longer than any scanner default (here 5 MB)
// go through unchanged apart from the spliced members.
func TestLongLines(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "long.jsonl")
	big := strings.Repeat("x\\\"y ", 1<<20)
	hdr := `{"type":"session","id":"s-long","timestamp":"2025-12-01T10:00:00.000Z","cwd":"/"}`
	msg := `{"type":"message","timestamp":"2025-12-01T10:00:01.000Z","message":{"role":"user","content":"` + big + `","timestamp":1}}`
	writeFile(t, p, []byte(hdr+"\n"+msg+"\n"))
	got, _ := migrateTo(t, testTree, p, "3", format.MigrateOptions{})
	id := session.DerivedID("s-long", 2, nil)
	want := strings.TrimSuffix(hdr, "}") + `,"version":3}` + "\n" + strings.TrimSuffix(msg, "}") + `,"id":"` + id + `","parentId":null}` + "\n"
	if string(got) != want {
		t.Errorf("long line: got %d bytes, want %d", len(got), len(want))
	}
}

// A run killed between linking the backup and the rename leaves FILE.bak
// as a hard link to FILE itself; a re-run keeps it as its backup instead
// of refusing (issue 18). A .bak that is another file is refused with how
// to proceed.
func TestLeftoverBackup(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	orig := read(t, "testdata/v1-compaction.jsonl")
	writeFile(t, p, orig)
	if err := os.Link(p, p+".bak"); err != nil {
		t.Skip("no hard links:", err)
	}
	res, err := testTree.Migrate(p, "3", format.MigrateOptions{})
	if err != nil {
		t.Fatalf("re-run after a killed run: %v", err)
	}
	want, _ := migrateTo(t, testTree, "testdata/v1-compaction.jsonl", "3", format.MigrateOptions{})
	if res.Backup != p+".bak" || !bytes.Equal(read(t, p+".bak"), orig) || !bytes.Equal(read(t, p), want) {
		t.Errorf("backup %q: original kept %v, file migrated %v", res.Backup, bytes.Equal(read(t, p+".bak"), orig), bytes.Equal(read(t, p), want))
	}

	q := filepath.Join(dir, "t.jsonl")
	writeFile(t, q, orig)
	writeFile(t, q+".bak", []byte("older\n"))
	_, err = testTree.Migrate(q, "3", format.MigrateOptions{})
	if err == nil || !strings.Contains(err.Error(), "if it is no longer needed, remove it and run again, or run with --no-backup or -o FILE") {
		t.Errorf("a foreign .bak: err = %v, want a refusal saying how to proceed", err)
	}
	if !bytes.Equal(read(t, q), orig) || !bytes.Equal(read(t, q+".bak"), []byte("older\n")) {
		t.Errorf("a refused migration changed a file")
	}
}

// Migrating through a symbolic link replaces the file it names and keeps
// the link; the new file keeps the old one's owner (issue 18: the link
// became a regular file owned by whoever ran sesstool).
func TestInPlaceThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(real, "s.jsonl")
	orig := read(t, "testdata/v1-compaction.jsonl")
	writeFile(t, target, orig)
	chowned := os.Geteuid() == 0 && os.Chown(target, 65534, 65534) == nil
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	res, err := testTree.Migrate(link, "3", format.MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := migrateTo(t, testTree, "testdata/v1-compaction.jsonl", "3", format.MigrateOptions{})
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is no longer a link: %v", err)
	}
	if !bytes.Equal(read(t, target), want) || !bytes.Equal(read(t, target+".bak"), orig) || res.Backup != target+".bak" {
		t.Errorf("target migrated %v, backup %q beside it holds the original %v", bytes.Equal(read(t, target), want), res.Backup, bytes.Equal(read(t, target+".bak"), orig))
	}
	if chowned {
		fi, _ := os.Stat(target)
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 {
			t.Errorf("owner %d:%d, want 65534:65534 kept", st.Uid, st.Gid)
		}
	}
}
