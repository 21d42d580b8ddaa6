package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// referenceMigrate is the migration as it was before the one-pass rewrite:
// the validator first, a pre-pass for the ids, then every line checked for
// JSON syntax and run through the steps, each step re-reading the line with
// gjson and splicing its change into a copy. It is the oracle the rewrite
// (one walk per line, edits applied at once, no syntax check where the
// validator made one, ids derived without the pre-pass) must match byte for
// byte, with the same notes and the same refusals.
func referenceMigrate(validate func(string, *report.Report) error, path string, to int, skipInvalid bool) ([]byte, []string, error) {
	h, err := readHeader(path)
	if err != nil {
		return nil, nil, err
	}
	if h.version == to {
		return nil, nil, errAtTarget
	}
	todo, err := plan(h.version, to)
	if err != nil {
		return nil, nil, err
	}
	if validate != nil {
		if _, err := (Tree{Validate: validate}).check(path, skipInvalid); err != nil {
			return nil, nil, err
		}
	}
	f := newFileState(path, h.id)
	taken := &idset.Index{} // ids in the file and ids handed out
	if h.version == 1 {
		if err := collectIDs(path, taken); err != nil {
			return nil, nil, err
		}
	}
	var fns []refFunc
	for _, s := range todo {
		switch {
		case s.from == 1:
			fns = append(fns, refV1to2(f, taken))
		case s.to == 3:
			fns = append(fns, refRenameRole(f, 3, "hookMessage", "custom"))
		default:
			fns = append(fns, refRenameRole(f, 2, "custom", "hookMessage"))
		}
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	var out bytes.Buffer
	if err := refRun(fh, &out, fns, f, skipInvalid); err != nil {
		var inv *invalid
		if errors.As(err, &inv) {
			return nil, nil, &format.InvalidError{Path: path, Findings: inv.findings()}
		}
		return nil, nil, err
	}
	return out.Bytes(), f.changes(), nil
}

// errAtTarget: the file is already at the version (left as it is).
var errAtTarget = errors.New("already at the version")

type refLine struct {
	n, pos int
	b      []byte
	typ    string
	header bool
}

type refFunc func(l *refLine) error

func refRun(src io.Reader, dst io.Writer, fns []refFunc, f *fileState, skipInvalid bool) error {
	lr := jsonl.NewReader(src)
	pos := -1
	for {
		l, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(l.Bytes)) == 0 {
			if err := write(dst, l.Bytes, l); err != nil {
				return err
			}
			continue
		}
		pos++
		if finding, bad := malformed(f.path, l); bad {
			if !skipInvalid || pos == 0 || finding.Rule == "schema" {
				return &invalid{finding}
			}
			f.skipped = append(f.skipped, l.N)
			continue
		}
		ln := refLine{n: l.N, pos: pos, b: l.Bytes, typ: gjson.GetBytes(l.Bytes, "type").String(), header: pos == 0}
		if ln.header && ln.typ != "session" {
			return &invalid{report.Finding{Path: f.path, Line: l.N, Severity: report.Error, Rule: "missing-header", Message: "the first entry is not a session header"}}
		}
		for _, fn := range fns {
			if err := fn(&ln); err != nil {
				return &invalid{report.Finding{Path: f.path, Line: l.N, Severity: report.Error, Rule: "migrate", Message: err.Error()}}
			}
		}
		if err := write(dst, ln.b, l); err != nil {
			return err
		}
	}
}

func refV1to2(f *fileState, taken *idset.Index) refFunc {
	prev := []byte("null")
	var ids []string
	return func(l *refLine) error {
		if l.header {
			l.b = setMember(l.b, "version", []byte("2"))
			f.notef("line %d: header version 1 -> 2", l.n)
			return nil
		}
		if l.typ == "session" {
			return fmt.Errorf("line %d: a second session header", l.n)
		}
		id := session.DerivedID(f.sessionID, l.n, func(id string) bool { _, ok := taken.Get(id); return ok })
		taken.Put(id, 0)
		for len(ids) <= l.pos {
			ids = append(ids, "")
		}
		ids[l.pos] = id
		quoted := strconv.AppendQuote(nil, id)
		l.b = setMember(l.b, "id", quoted)
		l.b = setMember(l.b, "parentId", prev)
		prev = quoted
		f.ids++
		if l.typ != "compaction" {
			return nil
		}
		idx := gjson.GetBytes(l.b, "firstKeptEntryIndex")
		if idx.Type != gjson.Number {
			return nil
		}
		i, whole := idx.Num, idx.Num == math.Trunc(idx.Num)
		switch {
		case !whole || i < 0 || i >= float64(len(ids)):
			f.notef("line %d: compaction firstKeptEntryIndex %s is out of range or ahead of the compaction: removed, no firstKeptEntryId (as pi does)", l.n, idx.Raw)
		case i == 0:
			f.notef("line %d: compaction firstKeptEntryIndex 0 points at the header: removed, no firstKeptEntryId (as pi does)", l.n)
		case ids[int(i)] == "":
			f.notef("line %d: compaction firstKeptEntryIndex %s points at a skipped line: removed, no firstKeptEntryId", l.n, idx.Raw)
		default:
			l.b = setMember(l.b, "firstKeptEntryId", strconv.AppendQuote(nil, ids[int(i)]))
			f.notef("line %d: compaction firstKeptEntryIndex %s -> firstKeptEntryId %q", l.n, idx.Raw, ids[int(i)])
		}
		l.b = deleteMember(l.b, "firstKeptEntryIndex")
		return nil
	}
}

func refRenameRole(f *fileState, version int, from, to string) refFunc {
	newRole := strconv.AppendQuote(nil, to)
	return func(l *refLine) error {
		if l.header {
			old := gjson.GetBytes(l.b, "version").Raw
			l.b = setMember(l.b, "version", []byte(strconv.Itoa(version)))
			f.notef("line %d: header version %s -> %d", l.n, old, version)
			return nil
		}
		if l.typ != "message" {
			return nil
		}
		if r := gjson.GetBytes(l.b, "message.role"); r.Type == gjson.String && r.Str == from {
			l.b = setPath(l.b, "message.role", newRole)
			f.roles[from+" -> "+to]++
		}
		return nil
	}
}

// testDoubleObjectValidator reports what the tree validator reports about
// syntax and about lines that are not objects, and nothing else: the least
// a validator must check for the rewrite to trust it.
func testDoubleObjectValidator(path string, rep *report.Report) error {
	if err := testDoubleSyntaxOnlyValidator(path, rep); err != nil {
		return err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for i, l := range bytes.Split(b, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) > 0 && gjson.ValidBytes(l) && !gjson.ParseBytes(l).IsObject() {
			rep.Add(report.Finding{Path: path, Line: i + 1, Severity: report.Error, Rule: "schema", Message: "not a JSON object"})
		}
	}
	return nil
}

// migrateFunc migrates the file at path to version to, in one of the
// rewrite's modes, and returns the bytes written.
type migrateFunc func(t *testing.T, tr Tree, path string, to int, skip, discardable bool) ([]byte, format.MigrateResult, error)

// compareWithReference migrates the file at path to every version in every
// mode the rewrite has (its own checks, or a validator's; to standard
// output, with the pre-pass, or to an output that can be thrown away,
// deriving ids as it goes and validating alongside; with and without
// --skip-invalid) and requires what the reference gives: the same bytes and
// notes, or a refusal with the same findings.
func compareWithReference(t *testing.T, path string, migrate migrateFunc) {
	t.Helper()
	for to := 1; to <= 3; to++ {
		for _, skip := range []bool{false, true} {
			for _, v := range []func(string, *report.Report) error{nil, testDoubleObjectValidator} {
				want, wantChanges, wantErr := referenceMigrate(v, path, to, skip)
				for _, discardable := range []bool{false, true} {
					got, res, err := migrate(t, Tree{Validate: v}, path, to, skip, discardable)
					name := fmt.Sprintf("to %d, skip-invalid %v, validator %v, discardable output %v", to, skip, v != nil, discardable)
					if errors.Is(wantErr, errAtTarget) {
						if err != nil || res.Changed {
							t.Fatalf("%s: a file at the version: changed %v, err %v", name, res.Changed, err)
						}
						continue
					}
					if (err == nil) != (wantErr == nil) {
						t.Fatalf("%s: err %v, reference err %v", name, err, wantErr)
					}
					if err != nil {
						var inv, winv *format.InvalidError
						if errors.As(err, &inv) != errors.As(wantErr, &winv) || (inv != nil && fmt.Sprint(inv.Findings) != fmt.Sprint(winv.Findings)) {
							t.Fatalf("%s: err %v, reference err %v", name, err, wantErr)
						}
						continue
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s:\n got %q\nwant %q", name, got, want)
					}
					if !slices.Equal(res.Changes, wantChanges) {
						t.Fatalf("%s: changes\n got %q\nwant %q", name, res.Changes, wantChanges)
					}
				}
			}
		}
	}
}

// migrateFile is Migrate itself: to standard output, or (discardable) to
// a new file.
func migrateFile(t *testing.T, tr Tree, path string, to int, skip, discardable bool) ([]byte, format.MigrateResult, error) {
	if !discardable {
		var out bytes.Buffer
		res, err := tr.Migrate(path, strconv.Itoa(to), format.MigrateOptions{Out: "-", Stdout: &out, SkipInvalid: skip})
		return out.Bytes(), res, err
	}
	out := filepath.Join(t.TempDir(), "out.jsonl")
	res, err := tr.Migrate(path, strconv.Itoa(to), format.MigrateOptions{Out: out, SkipInvalid: skip})
	if err != nil || !res.Changed {
		return nil, res, err
	}
	b, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Fatal(rerr)
	}
	return b, res, err
}

// migrateMemory is what Migrate runs between reading the header and
// writing the output (prepare, the body stream would run, the second
// attempt after errRestart), into memory: fast enough to fuzz, where
// Migrate's atomic writes sync to disk.
func migrateMemory(t *testing.T, tr Tree, path string, to int, skip, discardable bool) ([]byte, format.MigrateResult, error) {
	var res format.MigrateResult
	h, err := readHeader(path)
	if err != nil || h.version == to {
		return nil, res, err
	}
	todo, err := plan(h.version, to)
	if err != nil {
		return nil, res, err
	}
	opt := format.MigrateOptions{Out: "-", SkipInvalid: skip}
	if discardable {
		opt.Out = filepath.Join(t.TempDir(), "never-written.jsonl")
	}
	for first := true; ; first = false {
		rw, body, err := tr.prepare(path, h, todo, opt, first)
		if err != nil {
			return nil, res, err
		}
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		err = body(fh, &out)
		fh.Close()
		if errors.Is(err, errRestart) && first {
			continue
		}
		var inv *invalid
		if errors.As(err, &inv) {
			return nil, res, &format.InvalidError{Path: path, Findings: inv.findings()}
		}
		if err != nil {
			return nil, res, err
		}
		res.Changed, res.Changes = true, rw.f.changes()
		return out.Bytes(), res, nil
	}
}

// referenceSeeds are the test sessions plus lines that take the edits
// through their corners: a firstKeptEntryIndex first, last, or the only
// other member; members already present; whitespace around members;
// escaped and duplicate keys; a v1 entry that already holds the id a step
// would derive (so the ids are derived again after the pre-pass).
func referenceSeeds(t testing.TB) [][]byte {
	const hdr = `{"type":"session","id":"5f1c2b8e-1111-4a2b-9c3d-000000000001","timestamp":"2025-12-01T10:00:00.000Z","cwd":"/"}`
	clash := session.DerivedID("5f1c2b8e-1111-4a2b-9c3d-000000000001", 2, nil)
	seeds := [][]byte{
		[]byte(hdr + "\n" + `{"firstKeptEntryIndex":1,"type":"compaction"}` + "\n" + `{ "type" : "compaction" , "firstKeptEntryIndex" : 1 }` + "\r\n"),
		[]byte(hdr + "\n" + `{"type":"message","message":{"role":"user"}}` + "\n" + `{"type":"compaction","firstKeptEntryIndex":1,"id":"x","parentId":"y","firstKeptEntryId":"z"}` + "\n"),
		[]byte(hdr + "\n" + `{"typ\u0065":"message","message":{"x":1},"message":{"role":"hookMessage"}}` + "\n\n  \n" + `{"type":"message","message":{"role":"custom","role":"x"}}`),
		[]byte(hdr + "\n" + `{"type":"message","message":{"role":"user"}}` + "\n" + `{"type":"message","id":"` + clash + `"}` + "\n"),
		[]byte(`{"type":"session","id":"s","version":2}` + "\n" + `{"type":"message","id":"a","parentId":null,"message":{"role":"hookMessage","content":[]}}` + "\n" + `{}` + "\n"),
		[]byte(`{"type":"session","id":"s","version":3}` + "\n" + `{"type":"message","message":{"role":"custom"},"id":"a","parentId":null}` + "\n" + `[1]` + "\n"),
		[]byte(hdr + "\n" + `{"type":"message","message":{"role":"user"}}` + "\n" + `{"type":"message","message":{"role":"assis` + "\n" + `{"type":"compaction","firstKeptEntryIndex":2}` + "\n"),
	}
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	return seeds
}

func TestRewriteLikeReference(t *testing.T) {
	dir := t.TempDir()
	for i, b := range referenceSeeds(t) {
		p := filepath.Join(dir, fmt.Sprintf("seed%d.jsonl", i))
		writeFile(t, p, b)
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			compareWithReference(t, p, migrateFile)
			compareWithReference(t, p, migrateMemory)
		})
	}
}

func FuzzRewriteLikeReference(f *testing.F) {
	for _, b := range referenceSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "in.jsonl")
		writeFile(t, p, data)
		compareWithReference(t, p, migrateMemory)
	})
}
