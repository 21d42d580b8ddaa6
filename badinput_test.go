package main

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
)

// The bad-input matrix (issue 10): every row runs the real binary on one
// kind of broken input and pins the exit code and the one line that names
// the file (and line) and what is wrong. No row may panic, hang or succeed
// silently. Rows that need 100 MB or a million lines skip under -short.

var (
	binOnce sync.Once
	binPath string
)

// sesstoolBin is this test binary under the name sesstool: TestMain's
// testscript.Main runs the CLI when os.Args[0] is "sesstool", so the matrix
// runs the real entry point, in its own process (exit codes, stdin, kills).
func sesstoolBin(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		dir, err := os.MkdirTemp("", "sesstool-bin-")
		if err != nil {
			t.Fatal(err)
		}
		binPath = filepath.Join(dir, "sesstool")
		if err := os.Symlink(exe, binPath); err != nil {
			t.Fatal(err)
		}
	})
	return binPath
}

type result struct {
	code int
	out  string // stdout then stderr
	hung hangwatch.Verdict
}

// stall is how long a run may use no CPU at all before it is declared
// blocked (see hangwatch): a run that is working gets some CPU in every
// such window, however loaded the machine.
const stall = 30 * time.Second

// runBin runs sesstool with args in dir, stdin from stdin (nil: /dev/null),
// and kills it when it hangs: when it has used more than cpu of CPU time,
// or none for the stall window. Wall time alone never decides.
func runBin(t *testing.T, dir string, stdin []byte, cpu time.Duration, args ...string) result {
	t.Helper()
	cmd := exec.Command(sesstoolBin(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "HOME="+dir, "XDG_DATA_HOME="+dir, "PI_CODING_AGENT_DIR="+filepath.Join(dir, "pi"))
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	hung, err := hangwatch.Run(cmd, hangwatch.Limits{CPU: cpu, Stall: stall})
	if cmd.ProcessState == nil {
		t.Fatalf("run %v: %v", args, err)
	}
	r := result{code: cmd.ProcessState.ExitCode(), out: out.String(), hung: hung}
	if err != nil && r.code < 0 && hung == "" {
		t.Fatalf("run %v: %v", args, err)
	}
	return r
}

const flatHeader = `{"type":"session","id":"s","version":1,"timestamp":"2026-11-21T04:24:24Z","cwd":"/"}` + "\n"

func flatMessage(id, parent, text string) string {
	return `{"type":"message","id":"` + id + `","parent_id":"` + parent + `","timestamp":"2026-11-21T04:24:24Z","role":"user","message":{"role":"user","content":[{"type":"text","text":"` + text + `"}],"timestamp":1}}` + "\n"
}

// check is one command run on a row's input: {} in args is the input path.
type check struct {
	args  []string
	stdin []byte
	code  int
	want  string // regexp, matched against one line of the output
}

type badRow struct {
	name  string
	heavy bool                                  // skipped under -short
	make  func(t *testing.T, dir string) string // builds the input, returns its path (relative to dir)
	skip  func() string                         // a reason this row cannot run here, or ""
	check []check
}

func file(name, content string) func(*testing.T, string) string {
	return func(t *testing.T, dir string) string {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
}

func c(code int, want string, args ...string) check { return check{args: args, code: code, want: want} }

func badRows() []badRow {
	garbage := make([]byte, 4096)
	rand.New(rand.NewSource(1)).Read(garbage)
	utf16 := []byte{0xff, 0xfe}
	for _, r := range flatHeader {
		utf16 = append(utf16, byte(r), 0)
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"
	return []badRow{
		{name: "empty file", make: file("empty.jsonl", ""), check: []check{
			c(1, `^empty.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "validate", "{}"),
			c(1, `^empty.jsonl:0: error: empty file: no session header \(missing-header\)$`, "validate", "--format", "flat", "{}"),
			c(1, `^empty.jsonl:0: error: .*\(missing-header\)$`, "validate", "--format", "tree", "{}"),
			c(1, `^empty.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "convert", "--to", "tree", "-o", "out.jsonl", "{}"),
			c(1, `^empty.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "info", "{}"),
			c(1, `^empty.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "detect", "{}"),
			c(1, `^empty.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "export", "html", "-o", "out.html", "{}"),
			c(1, `^empty.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "migrate", "{}"),
		}},
		{name: "whitespace only", make: file("ws.jsonl", " \n\t\r\n\n"), check: []check{
			c(1, `^ws.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "validate", "{}"),
			c(1, `^ws.jsonl:1: warning: blank line .*\(blank-line\)$`, "validate", "--format", "flat", "{}"),
		}},
		{name: "binary garbage", make: file("garbage.jsonl", string(garbage)), check: []check{
			c(1, `^garbage.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "validate", "{}"),
			c(1, `^garbage.jsonl:1(:\d+)?: error: .*\((json-syntax|invalid-utf8|torn-line)\)$`, "validate", "--format", "tree", "{}"),
			c(1, `^garbage.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "detect", "{}"),
		}},
		{name: "UTF-8 BOM", make: file("bom.jsonl", "\ufeff"+flatHeader+flatMessage("aaaaaaa1", "", "hi")), check: []check{
			c(1, `^bom.jsonl:1:1: error: the file starts with a UTF-8 byte order mark .*\(utf8-bom\)$`, "validate", "{}"),
			c(1, `^sesstool: bom.jsonl does not validate \(\d+ errors\); nothing written$`, "convert", "--to", "tree", "-o", "out.jsonl", "{}"),
		}},
		{name: "UTF-16", make: file("utf16.jsonl", string(utf16)), check: []check{
			c(1, `^utf16.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "validate", "{}"),
			c(1, `^utf16.jsonl:1(:\d+)?: error: .*\((json-syntax|invalid-utf8|torn-line)\)$`, "validate", "--format", "flat", "{}"),
		}},
		{name: "invalid UTF-8", make: file("badutf8.jsonl", flatHeader+flatMessage("aaaaaaa1", "", "caf\xe9")), check: []check{
			c(1, `^badutf8.jsonl:2:\d+: error: invalid UTF-8 \(invalid-utf8\)$`, "validate", "{}"),
			c(1, `^badutf8.jsonl:2:\d+: error: invalid UTF-8 \(invalid-utf8\)$`, "convert", "--to", "tree", "-o", "out.jsonl", "{}"),
		}},
		{name: "NUL bytes", make: file("nul.jsonl", flatHeader+"{\"type\":\"message\",\x00\"id\":\"a\"}\n"), check: []check{
			c(1, `^nul.jsonl:2:\d+: error: invalid JSON: invalid character '\\x00' .*\(json-syntax\)$`, "validate", "{}"),
		}},
		{name: "a single 100 MB line", heavy: true, make: file("big.jsonl", flatHeader+flatMessage("aaaaaaa1", "", strings.Repeat("x", 100<<20))), check: []check{
			c(0, `^1 files, 1 entries, 0 errors, 0 warnings$`, "validate", "{}"),
			// info reads the session into the model: a line over 64 MiB
			// (jsonl.MaxHeld) is refused, not held (issue 18, point 7)
			c(1, `^sesstool: big.jsonl: line 2: longer than 64 MiB, the longest line sesstool reads into a session; validate checks it, and convert --to tree copies it from a tree session$`, "info", "{}"),
		}},
		{name: "a million tiny lines", heavy: true, make: file("million.jsonl", flatHeader+strings.Repeat("{\"type\":\"x\"}\n", 1000000)), check: []check{
			c(0, `(?s)^million.jsonl:1000001: warning: unknown entry type "x" [^\n]*\(unknown-type\)\n1 files, 1000000 entries, 0 errors, 1000000 warnings$`, "validate", "{}"),
		}},
		{name: "JSON nested 100000 deep", make: file("deep.jsonl", deep), check: []check{
			c(1, `^deep.jsonl:0: error: not a session in any known format \(unknown-format\)$`, "validate", "{}"),
			c(1, `^deep.jsonl:1:10001: error: invalid JSON: .*exceeded max depth \(json-syntax\)$`, "validate", "--format", "tree", "{}"),
			c(1, `^deep.jsonl:1:10001: error: invalid JSON: .*exceeded max depth \(json-syntax\)$`, "validate", "--format", "flat", "{}"),
		}},
		{name: "JSON nested 100000 deep inside a valid file", make: file("deep2.jsonl", flatHeader+`{"type":"x","a":`+strings.TrimSuffix(deep, "\n")+"}\n"), check: []check{
			c(1, `^deep2.jsonl:2:\d+: error: invalid JSON: .*exceeded max depth \(json-syntax\)$`, "validate", "{}"),
			c(1, `^deep2.jsonl:2:\d+: error: invalid JSON: .*exceeded max depth \(json-syntax\)$`, "convert", "--to", "tree", "-o", "out.jsonl", "{}"),
		}},
		{name: "numbers beyond int64 and float64", make: file("bignum.jsonl",
			`{"type":"session","version":3,"id":"s","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/"}`+"\n"+
				`{"type":"compaction","id":"c","parentId":null,"timestamp":"2026-01-06T10:00:01.000Z","summary":"s","firstKeptEntryId":"c","tokensBefore":1e999999999}`+"\n"+
				`{"type":"compaction","id":"d","parentId":"c","timestamp":"2026-01-06T10:00:01.000Z","summary":"s","firstKeptEntryId":"d","tokensBefore":123456789012345678901234567890}`+"\n"), check: []check{
			c(1, `^bignum.jsonl:2: error: .*\(schema\)$`, "validate", "{}"),
			c(1, `^bignum.jsonl:2: error: .*\(schema\)$`, "migrate", "--to", "2", "{}"),
		}},
		{name: "numbers beyond int64 and float64 where any number is allowed", make: file("bignum2.jsonl",
			flatHeader+`{"type":"message","id":"aaaaaaa1","parent_id":"","timestamp":"2026-11-21T04:24:24Z","role":"user","message":{"role":"user","content":[],"timestamp":1e400,"n":123456789012345678901234567890}}`+"\n"), check: []check{
			// JSON sets no limit: accepted, and the source spelling is kept
			c(0, `^1 files, 1 entries, 0 errors, 0 warnings$`, "validate", "{}"),
			c(0, `^out.jsonl$`, "convert", "--to", "flat", "-o", "out.jsonl", "{}"),
			c(0, `1e400,"n":123456789012345678901234567890`, "convert", "--to", "flat", "-o", "-", "{}"),
		}},
		{name: "duplicate keys", make: file("dup.jsonl", flatHeader+`{"type":"message","id":"aaaaaaa1","id":"aaaaaaa2","parent_id":"","timestamp":"2026-11-21T04:24:24Z","role":"user","message":{"role":"user","content":[],"timestamp":1}}`+"\n"), check: []check{
			c(1, `^dup.jsonl:2:\d+: error: key "id" appears twice in one object .*\(duplicate-key\)$`, "validate", "{}"),
			c(1, `^dup.jsonl:2:\d+: error: key "id" appears twice`, "convert", "--to", "tree", "-o", "out.jsonl", "{}"),
		}},
		{name: "torn last line", make: file("torn.jsonl", flatHeader+flatMessage("aaaaaaa1", "", "hi")+`{"type":"message","id":"aaa`), check: []check{
			c(1, `^torn.jsonl:3: error: last line is incomplete .*\(torn-line\)$`, "validate", "{}"),
			c(1, `^torn.jsonl:3: error: last line is incomplete`, "convert", "--to", "tree", "-o", "out.jsonl", "{}"),
			c(1, `^torn.jsonl:3: error: last line is incomplete`, "export", "markdown", "-o", "out.md", "{}"),
		}},
		{name: "torn last line (tree, migrate)", make: file("torn3.jsonl", `{"type":"session","id":"s","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/"}`+"\n"+`{"type":"message","id":"a`), check: []check{
			c(1, `^torn3.jsonl:2: error: last line is incomplete`, "migrate", "{}"),
		}},
		{name: "a directory where a file is expected", make: func(t *testing.T, dir string) string {
			os.Mkdir(filepath.Join(dir, "d.jsonl"), 0o755)
			return "d.jsonl"
		}, check: []check{
			c(1, `^d.jsonl:0: error: no session files or directories found here \(no-sessions\)$`, "validate", "{}"),
			c(1, `^d.jsonl:0: error: no session files or directories found here \(no-sessions\)$`, "convert", "--to", "tree", "{}"),
			c(1, `^d.jsonl:0: error: no session files or directories found here \(no-sessions\)$`, "info", "{}"),
			c(1, `^d.jsonl:0: error: no session files or directories found here \(no-sessions\)$`, "migrate", "{}"),
			c(1, `^d.jsonl:0: error: no session files or directories found here \(no-sessions\)$`, "detect", "{}"),
		}},
		{name: "a directory where a file is expected (ash context.jsonl)", make: func(t *testing.T, dir string) string {
			os.MkdirAll(filepath.Join(dir, "cli", "context.jsonl"), 0o755)
			os.WriteFile(filepath.Join(dir, "cli", "state.json"), []byte(`{"provider":"cli"}`), 0o644)
			return "cli"
		}, check: []check{
			c(1, `^cli:0: error: no session files or directories found here \(no-sessions\)$`, "validate", "{}"),
			c(1, `^cli/state.json:0: warning: not a session in any known format \(unknown-format\)$`, "convert", "--to", "tree", "{}"),
		}},
		{name: "a file where a directory is expected", make: file("f.jsonl", flatHeader+flatMessage("aaaaaaa1", "", "hi")), check: []check{
			c(3, `^f.jsonl/x.jsonl:0: error: cannot be read: not a directory \(unreadable\)$`, "validate", "f.jsonl/x.jsonl"),
			c(3, `^sesstool: .*f.jsonl.*not a directory`, "convert", "--to", "goat", "-o", "f.jsonl", "{}"),
			c(3, `^sesstool: .*not a directory`, "convert", "--to", "tree", "-o", "f.jsonl/out.jsonl", "{}"),
		}},
		{name: "an unreadable file (chmod 000)", make: func(t *testing.T, dir string) string {
			file("locked.jsonl", flatHeader)(t, dir)
			os.Chmod(filepath.Join(dir, "locked.jsonl"), 0)
			return "locked.jsonl"
		}, skip: func() string {
			if os.Geteuid() == 0 {
				return "running as root, which reads a chmod 000 file anyway; the rows below test what root cannot read"
			}
			return ""
		}, check: []check{
			c(3, `^locked.jsonl:0: error: cannot be read: permission denied \(unreadable\)$`, "validate", "{}"),
		}},
		{name: "a path that cannot be opened (link loop, as root too)", make: func(t *testing.T, dir string) string {
			os.Symlink("self.jsonl", filepath.Join(dir, "self.jsonl"))
			return "self.jsonl"
		}, check: []check{
			c(3, `^self.jsonl:0: error: symlink loop \(too many levels of symbolic links\) \(symlink-loop\)$`, "validate", "{}"),
			c(3, `^self.jsonl:0: error: symlink loop \(too many levels of symbolic links\) \(symlink-loop\)$`, "convert", "--to", "tree", "{}"),
			c(3, `^self.jsonl:0: error: symlink loop \(too many levels of symbolic links\) \(symlink-loop\)$`, "info", "{}"),
			c(3, `^self.jsonl:0: error: symlink loop \(too many levels of symbolic links\) \(symlink-loop\)$`, "detect", "{}"),
			c(3, `^self.jsonl:0: error: symlink loop \(too many levels of symbolic links\) \(symlink-loop\)$`, "migrate", "{}"),
			c(3, `^self.jsonl:0: error: symlink loop \(too many levels of symbolic links\) \(symlink-loop\)$`, "export", "html", "{}"),
		}},
		{name: "an output named with a trailing slash is a directory", make: file("s.jsonl", flatHeader+flatMessage("aaaaaaa1", "", "hi")), check: []check{
			c(0, `^out.html/s.html$`, "export", "html", "-o", "out.html/", "--force", "{}"),
		}},
		{name: "a symlink loop in a store", make: func(t *testing.T, dir string) string {
			store := filepath.Join(dir, "store")
			os.MkdirAll(store, 0o755)
			os.WriteFile(filepath.Join(store, "s.jsonl"), []byte(flatHeader+flatMessage("aaaaaaa1", "", "hi")), 0o644)
			os.Symlink("l2", filepath.Join(store, "l1"))
			os.Symlink("l1", filepath.Join(store, "l2"))
			os.Symlink("..", filepath.Join(store, "up"))
			return "store"
		}, check: []check{
			c(0, `^store/l1:0: warning: symlink loop \(too many levels of symbolic links\) \(symlink-loop\)$`, "validate", "{}"),
			c(0, `^store/l2:0: warning: symlink loop \(too many levels of symbolic links\) \(symlink-loop\)$`, "validate", "{}"),
			c(0, `^store/up/store:0: warning: directory already visited \(symlink loop\) \(symlink-loop\)$`, "validate", "{}"),
			c(0, `^1 files, 1 entries, 0 errors, 3 warnings$`, "validate", "{}"),
			c(0, `^store/l1:0: warning: symlink loop \(too many levels of symbolic links\) \(symlink-loop\)$`, "detect", "{}"),
		}},
		{name: "a FIFO", make: func(t *testing.T, dir string) string {
			if err := syscall.Mkfifo(filepath.Join(dir, "fifo.jsonl"), 0o644); err != nil {
				t.Fatal(err)
			}
			return "fifo.jsonl"
		}, check: []check{
			c(3, `^fifo.jsonl:0: error: not a regular file or directory: a named pipe \(FIFO\); read it as standard input with - instead \(not-regular\)$`, "validate", "{}"),
			c(3, `named pipe \(FIFO\)`, "convert", "--to", "tree", "{}"),
			c(3, `named pipe \(FIFO\)`, "info", "{}"),
			c(3, `named pipe \(FIFO\)`, "detect", "{}"),
			c(3, `named pipe \(FIFO\)`, "migrate", "{}"),
			c(3, `named pipe \(FIFO\)`, "export", "html", "{}"),
		}},
		{name: "a FIFO in a store", make: func(t *testing.T, dir string) string {
			os.MkdirAll(filepath.Join(dir, "store"), 0o755)
			os.WriteFile(filepath.Join(dir, "store", "s.jsonl"), []byte(flatHeader+flatMessage("aaaaaaa1", "", "hi")), 0o644)
			if err := syscall.Mkfifo(filepath.Join(dir, "store", "fifo.jsonl"), 0o644); err != nil {
				t.Fatal(err)
			}
			return "store"
		}, check: []check{
			c(0, `^store/fifo.jsonl:0: warning: not a regular file or directory: a named pipe`, "validate", "{}"),
			c(0, `^store/s.jsonl: flat`, "detect", "store/s.jsonl"),
		}},
		{name: "a closed standard input", make: file("unused", ""), check: []check{
			// the runtime gives a closed descriptor 0 /dev/null: no data
			{args: []string{"validate", "-"}, stdin: []byte{}, code: 1, want: `^sesstool: standard input: not a session in any known single-file format$`},
			{args: []string{"convert", "--to", "tree", "-"}, stdin: []byte{}, code: 1, want: `^sesstool: standard input: not a session in any known single-file format$`},
			{args: []string{"migrate", "-"}, stdin: []byte{}, code: 1, want: `^sesstool: standard input: not a session in any known single-file format$`},
		}},
	}
}

func TestBadInputMatrix(t *testing.T) {
	for _, row := range badRows() {
		t.Run(row.name, func(t *testing.T) {
			if row.heavy && testing.Short() {
				t.Skip("large input; skipped with -short")
			}
			if row.skip != nil {
				if why := row.skip(); why != "" {
					t.Skip(why)
				}
			}
			dir := t.TempDir()
			p := row.make(t, dir)
			for _, ck := range row.check {
				args := make([]string, len(ck.args))
				for i, a := range ck.args {
					args[i] = strings.ReplaceAll(a, "{}", p)
				}
				var r result
				if ck.stdin != nil && row.name == "a closed standard input" {
					r = runClosedStdin(t, dir, args...)
				} else {
					r = runBin(t, dir, ck.stdin, 2*time.Minute, args...)
				}
				name := strings.Join(args, " ")
				if r.hung != "" {
					t.Fatalf("%s: did not finish (hung: %s)", name, r.hung)
				}
				if strings.Contains(r.out, "goroutine ") || strings.Contains(r.out, "internal error") {
					t.Errorf("%s: panicked:\n%s", name, clipOut(r.out))
				}
				if r.code != ck.code {
					t.Errorf("%s: exit %d, want %d\n%s", name, r.code, ck.code, clipOut(r.out))
				}
				if !regexp.MustCompile(`(?m)` + ck.want).MatchString(r.out) {
					t.Errorf("%s: no line matches %q in\n%s", name, ck.want, clipOut(r.out))
				}
			}
		})
	}
}

// runClosedStdin runs sesstool with descriptor 0 closed (sh's <&-).
func runClosedStdin(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", `exec "$0" "$@" <&-`, sesstoolBin(t)}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	hung, err := hangwatch.Run(cmd, hangwatch.Limits{CPU: time.Minute, Stall: stall})
	if cmd.ProcessState == nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return result{code: cmd.ProcessState.ExitCode(), out: out.String(), hung: hung}
}

func clipOut(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) > 12 {
		lines = append(lines[:12], "...")
	}
	return strings.Join(lines, "\n")
}
