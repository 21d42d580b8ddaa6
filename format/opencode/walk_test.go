package opencode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// Sessions read from what Load kept are the sessions read from the disk,
// byte for byte (Raw included), for every layout.
func TestLoadReadsWhatTheDiskHolds(t *testing.T) {
	paths := []string{treeSample, "testdata/samples/tree-v1.1.34", "testdata/samples/legacy-v0.5.29",
		"testdata/samples/sqlite/opencode-1.2.1-after-json-migration.db"}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			rep := &report.Report{}
			f, err := Format{}.Load(p, rep, format.ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Errors() > 0 {
				t.Fatalf("sample has errors: %v", rep.Findings())
			}
			want, err := Format{}.Sessions(p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.Sessions(p)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" || len(want) == 0 {
				t.Fatalf("sessions (-disk +loaded), %d on disk:\n%s", len(want), d)
			}
			for _, ref := range want {
				if d := cmp.Diff(load(t, Format{}, p, ref.ID), load(t, f, p, ref.ID)); d != "" {
					t.Errorf("%s (-disk +loaded):\n%s", ref.ID, d)
				}
			}
		})
	}
}

// A store larger than maxSnapshot is validated without keeping its files,
// and read from the disk: Load then returns the plain layout.
func TestLoadKeepsNothingOfALargeStore(t *testing.T) {
	defer func(n int) { maxSnapshot = n }(maxSnapshot)
	maxSnapshot = 1000
	rep := &report.Report{}
	f, err := Format{}.Load(treeSample, rep, format.ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, held := f.(loaded); held || rep.Errors() > 0 {
		t.Fatalf("Load kept a store over the limit (%T), or found errors: %v", f, rep.Findings())
	}
	refs, err := f.Sessions(treeSample)
	if err != nil || len(refs) == 0 {
		t.Fatalf("sessions: %v, %d", err, len(refs))
	}
}

// A store of many files, each with an id that is not its name: the report
// keeps the first MaxErrors in store order however many workers check it.
func TestWalkKeepsStoreOrder(t *testing.T) {
	root := filepath.Join(t.TempDir(), "storage")
	sid := "ses_e03a737e8ffeFPl5pgZjDAnlwG"
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("migration", "2")
	write("session/global/"+sid+".json", `{"id":"`+sid+`","version":"1.1.34","projectID":"global","directory":"/x","title":"t","time":{"created":1,"updated":2}}`)
	const n = 5*batchFiles + 7
	var names []string
	for i := range n {
		name := fmt.Sprintf("msg_%012xAAAAAAAAAAAAAA", 0x1fc58c90b000+i)
		names = append(names, name)
		write("message/"+sid+"/"+name+".json", fmt.Sprintf(`{"id":"msg_%012xBBBBBBBBBBBBBB","sessionID":%q,"role":"user","time":{"created":%d}}`, 0x1fc58c90b000+i, sid, i+3))
	}
	for _, workers := range []int{1, 2, 7} {
		rep := &report.Report{MaxErrors: 20}
		if err := validatePath(root, rep, workers); err != nil {
			t.Fatal(err)
		}
		if rep.Errors() != n {
			t.Errorf("workers %d: %d errors, want %d", workers, rep.Errors(), n)
		}
		fs := rep.Findings()
		if len(fs) != 20 {
			t.Fatalf("workers %d: kept %d findings, want 20", workers, len(fs))
		}
		for i, f := range fs {
			if f.Rule != ruleIDMismatch || !strings.Contains(f.Path, names[i]) {
				t.Errorf("workers %d: finding %d is %s, want the id-mismatch of %s", workers, i, f.Text(), names[i])
			}
		}
	}
}

// Findings of every invalid case are the same with one worker and many.
func TestWalkWorkersAgree(t *testing.T) {
	for _, p := range validateCases(t) {
		var texts [2][]string
		for i, workers := range []int{1, 5} {
			rep := &report.Report{MaxErrors: 2}
			if err := validatePath(p, rep, workers); err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Findings() {
				texts[i] = append(texts[i], f.Text())
			}
			texts[i] = append(texts[i], fmt.Sprint(rep.Summary()))
		}
		if d := cmp.Diff(texts[0], texts[1]); d != "" {
			t.Errorf("%s (-1 worker +5):\n%s", p, d)
		}
	}
}

// appendCompact writes what json.Compact writes, for valid JSON.
func TestAppendCompact(t *testing.T) {
	cases := []string{`{}`, ` [ 1 , "a b" , {"k" : "v\" \\"} ] `, "{\n  \"a\\\\\": \"\\\\\",\n\t\"b\": [true,\r\nnull]\n}",
		`"\\\"x\\"`, `"é ☃ \u00e9"`, `  12.5e3 `}
	err := filepath.Walk("testdata", func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.HasSuffix(p, ".json") {
			b, _ := os.ReadFile(p)
			cases = append(cases, string(b))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		checkCompact(t, []byte(c))
	}
}

func FuzzAppendCompact(f *testing.F) {
	f.Add([]byte(`{"a": "b\\\" c", "d": [1, 2]}`))
	f.Fuzz(checkCompact)
}

func checkCompact(t *testing.T, b []byte) {
	if !json.Valid(b) {
		return
	}
	var want bytes.Buffer
	if err := json.Compact(&want, b); err != nil {
		t.Fatal(err)
	}
	if got := appendCompact([]byte("x"), b); string(got) != "x"+want.String() {
		t.Errorf("appendCompact(%q) = %q, want %q", b, got[1:], want.Bytes())
	}
}

// Msg.encode spells {info, parts} as jsonx's builders do.
func TestMsgEncode(t *testing.T) {
	for _, m := range []Msg{{}, {Info: []byte(`{"id":"m"}`)}, {Info: []byte(`{}`), Parts: [][]byte{[]byte(`{"a":1}`), []byte(`[2]`)}}} {
		var o jsonx.Obj
		want := o.Raw("info", m.Info).Raw("parts", jsonx.Arr(m.Parts)).Bytes()
		if got := m.encode(); string(got) != string(want) {
			t.Errorf("encode = %s, want %s", got, want)
		}
	}
}

// A session longer than a batch is mapped on other goroutines: the entries
// are those of a mapping one message at a time, in order, linked.
func TestDocReaderBatches(t *testing.T) {
	st, _, err := openStore(treeSample)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := st.list()
	if err != nil {
		t.Fatal(err)
	}
	var msgs []Msg
	for _, ref := range refs {
		d, err := st.load(ref)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, d.Messages...)
	}
	d := &Doc{Info: []byte(`{"id":"ses_e03a737e8ffeFPl5pgZjDAnlwG"}`)}
	for len(d.Messages) < 3*batchMsgs+5 {
		d.Messages = append(d.Messages, msgs...)
	}
	var want []*session.Entry
	prev := ""
	for _, m := range d.Messages {
		for _, e := range entriesOf(m) {
			e.ParentID, prev = prev, e.ID
			if n := len(want); n > 0 && isTrigger(want[n-1]) && e.Kind == session.KindCompaction {
				// a compaction holds the trigger before it
				note, _ := e.Private.(*msgNote)
				if note == nil {
					note = &msgNote{}
				}
				note.Trigger = want[n-1]
				e.Private, e.ParentID = note, want[n-1].ParentID
				want = want[:n-1]
			}
			want = append(want, e)
		}
	}
	got, err := session.ReadAll(newDocReader(d, nil))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got.Entries); d != "" {
		t.Fatalf("entries (-one at a time +batched):\n%s", d)
	}
	// A reader left after one entry leaves no work behind that blocks.
	r := newDocReader(d, nil)
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	for _, m := range r.ahead {
		<-m.done
	}
}

// readFile fails as os.ReadFile does, and refuses what is not a regular
// file (a directory here) without reading it.
func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "missing.json")
	_, want := os.ReadFile(p)
	if _, got := readFile(p, nil); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("readFile(%s) = %v, want %v", p, got, want)
	}
	if _, got := readFile(dir, nil); !errors.Is(got, regfile.ErrNotRegular) {
		t.Errorf("readFile(%s) = %v, want not a regular file", dir, got)
	}
	b, err := readFile(filepath.Join(treeSample, "migration"), make([]byte, 0, 1))
	if want, _ := os.ReadFile(filepath.Join(treeSample, "migration")); err != nil || string(b) != string(want) {
		t.Errorf("readFile = %q, %v; want %q", b, err, want)
	}
}
