package command

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/session"
)

// TestBranchesAgree: for every session of every sample (the project's
// testdata/samples, and $SESSTOOL_SHARED's samples and real-world sessions
// where there), info, export and convert give one answer for the branches
// and the active path (docs/commands.md#branches-and-the-active-path):
//   - info's leaf is the entry the HTML page starts from, and info's branch
//     count is the page header's and Markdown's "one of N";
//   - the HTML page's active path (its end and the parents it walks, as its
//     script does: the shown leaf and the records after it, which the page
//     marks on the path but does not show) holds the shown leaf and leaves
//     out exactly the entries convert --to flat reports as off the path, and
//     convert reports exactly info's branches less one as flattened;
//   - the assistant messages convert --to flat writes are those of the
//     page's path, in order;
//   - convert --to tree, which keeps every line, gives a file info counts
//     as many branches in (ash's tool results re-chained by the same rule).
//
// Each command is run as the CLI runs it. A session that export or convert
// refuses as invalid cannot be compared and is logged.
func TestBranchesAgree(t *testing.T) {
	checked := 0
	eachSample(t, func(u pipeline.Unit, refs []format.Ref, sessions []*session.Session) {
		infos := infoJSON(t, u.Format.Name(), u.Path)
		if len(infos) != len(sessions) {
			t.Errorf("%s: info printed %d sessions, the layout has %d", u.Path, len(infos), len(sessions))
			return
		}
		for k, s := range sessions {
			// a ref with an id is picked from its store with --session;
			// one without is named by its own path (an ash session dir)
			p, sel := refs[k].Path, refs[k].ID
			name := strings.TrimSuffix(p+"#"+sel, "#")
			t.Run(name, func(t *testing.T) {
				if agree(t, u.Format.Name(), p, sel, s, infos[k]) {
					checked++
				}
			})
		}
	})
	if checked < 20 {
		t.Errorf("only %d sessions compared: the samples were not found", checked)
	}
	t.Logf("%d sessions compared", checked)
}

func run(f func(env *Env) error) (stdout, stderr string, err error) {
	var o, e bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, StdinIsData: func() bool { return false }}
	err = f(env)
	return o.String(), e.String(), err
}

func infoJSON(t *testing.T, layout, path string) []Stats {
	t.Helper()
	out, stderr, err := run(func(env *Env) error {
		return Info(env, InfoOptions{Output: "json", Format: layout, Paths: []string{path}})
	})
	if err != nil {
		t.Fatalf("info %s: %v\n%s", path, err, stderr)
	}
	var all []Stats
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var st Stats
		if err := dec.Decode(&st); errors.Is(err, io.EOF) {
			return all
		} else if err != nil {
			t.Fatalf("info %s: %v", path, err)
		}
		all = append(all, st)
	}
}

// agree runs export and convert on one session and compares them with
// info's st; it reports whether the session could be compared.
func agree(t *testing.T, layout, path, sel string, s *session.Session, st Stats) bool {
	if st.ID != s.Meta.ID {
		t.Fatalf("info's session %q is not the layout's %q", st.ID, s.Meta.ID)
	}
	exp := func(kind string) (string, error) {
		out, stderr, err := run(func(env *Env) error {
			return Export(env, ExportOptions{Kind: kind, Out: "-", Session: sel, From: layout, Paths: []string{path}})
		})
		if err != nil {
			err = fmt.Errorf("%w: %s", err, stderr)
		}
		return out, err
	}
	page, err := exp("html")
	if Code(err) == ExitInvalid {
		t.Logf("export refused it as invalid, not compared: %v", err)
		return false
	}
	if err != nil {
		t.Fatalf("export html: %v", err)
	}
	md, err := exp("markdown")
	if err != nil {
		t.Fatalf("export markdown: %v", err)
	}

	// info and export: the leaf and the number of branches
	leaf, end, parents := pagePayload(t, page)
	main := 0
	for _, e := range s.Entries {
		if e.Sidechain == "" {
			main++
		}
	}
	if main == 0 {
		if leaf != -1 || st.Branches != 0 {
			t.Errorf("no main entries: page leaf %d, info %d branches", leaf, st.Branches)
		}
		return true
	}
	if leaf < 0 || leaf >= len(s.Entries) || s.Entries[leaf].ID != st.Leaf || s.Entries[leaf].Sidechain != "" {
		t.Errorf("page leaf is entry %d, info's leaf is %q", leaf, st.Leaf)
	}
	if m := regexp.MustCompile(`in (\d+) branch(?:es)?<`).FindStringSubmatch(page); m == nil || m[1] != strconv.Itoa(st.Branches) {
		t.Errorf("page header says %v, info %d branches", m, st.Branches)
	}
	oneOf := regexp.MustCompile(`\*\*Branch:\*\* ending at (.*) \(one of (\d+)\)`).FindStringSubmatch(md)
	if oneOf != nil { // the id as Markdown shows it: its punctuation escaped
		oneOf[1] = regexp.MustCompile("\\\\([!-/:-@\\[-`{-~])").ReplaceAllString(oneOf[1], "$1")
	}
	switch {
	case st.Branches > 1 && (oneOf == nil || oneOf[2] != strconv.Itoa(st.Branches) || oneOf[1] != st.Leaf):
		t.Errorf("markdown says %v; info: leaf %s, %d branches", oneOf, st.Leaf, st.Branches)
	case st.Branches <= 1 && oneOf != nil:
		t.Errorf("markdown says %v; info: %d branch", oneOf, st.Branches)
	}

	// export's active path as the page's script walks it: from its end,
	// through the shown leaf
	on := map[int]bool{}
	var shown []int
	for i := end; i >= 0 && !on[i]; i = parents[i] {
		on[i] = true
		shown = append([]int{i}, shown...)
	}
	if !on[leaf] {
		t.Errorf("the page's active path, from entry %d, does not hold its shown leaf %d", end, leaf)
	}
	offPath := 0
	for i, e := range s.Entries {
		if e.Sidechain == "" && !on[i] {
			offPath++
		}
	}

	// convert: what a linear layout keeps
	out := filepath.Join(t.TempDir(), "out.jsonl")
	lr, stderr, err := convertRun(layout, path, sel, out, "flat")
	if err != nil {
		t.Fatalf("convert --to flat: %v\n%s", err, stderr)
	}
	counts := map[string]int{}
	for _, it := range lr.Losses {
		counts[string(it.Kind)+" "+string(it.Action)] = it.Count
	}
	if counts["branch flattened"] != st.Branches-1 {
		t.Errorf("convert flattened %d branches; info counts %d", counts["branch flattened"], st.Branches)
	}
	if counts["off-path-entry dropped"] != offPath {
		t.Errorf("convert left %d entries off the path; the page leaves %d of %d main entries off", counts["off-path-entry dropped"], offPath, main)
	}
	var want, got []string
	for _, i := range shown {
		if e := s.Entries[i]; e.Kind == session.KindMessage && e.Message != nil && e.Message.Role == session.RoleAssistant {
			m := e.Message
			want = append(want, m.Text())
		}
	}
	for _, w := range sessionsOf(t, "flat", out) {
		for _, e := range w.Entries {
			if m := e.Message; e.Kind == session.KindMessage && m != nil && m.Role == session.RoleAssistant {
				got = append(got, m.Text())
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("convert kept %d assistant messages, the page's path has %d:\n got %q\nwant %q", len(got), len(want), got, want)
	}

	tree := filepath.Join(t.TempDir(), "tree.jsonl")
	if _, stderr, err := convertRun(layout, path, sel, tree, "tree"); err != nil {
		t.Fatalf("convert --to tree: %v\n%s", err, stderr)
	}
	if back := infoJSON(t, "tree", tree); len(back) != 1 || back[0].Branches != st.Branches {
		t.Errorf("convert --to tree gives %+v; info counts %d branches in the source", back, st.Branches)
	}
	return true
}

func convertRun(layout, path, sel, out, to string) (lossReport, string, error) {
	report := out + ".loss.json"
	_, stderr, err := run(func(env *Env) error {
		return Convert(env, ConvertOptions{From: layout, To: to, Out: out, Session: sel, LossReport: report, Paths: []string{path}})
	})
	var lr lossReport
	if err != nil {
		return lr, stderr, err
	}
	b, err := os.ReadFile(report)
	if err == nil {
		err = json.Unmarshal(b, &lr)
	}
	return lr, stderr, err
}

// pagePayload decodes the data an exported page carries: the leaf it shows
// first, the end of the active path and every entry's parent.
func pagePayload(t *testing.T, page string) (leaf, end int, parents []int) {
	t.Helper()
	m := regexp.MustCompile(`<script type="application/octet-stream" id="data">([^<]*)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("page has no data")
	}
	z, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	// the tree's links close the page's data, after the entries
	var d struct {
		Leaf    int   `json:"leaf"`
		End     *int  `json:"end"`
		Parents []int `json:"parents"`
	}
	if err := json.NewDecoder(zr).Decode(&d); err != nil {
		t.Fatal(err)
	}
	if d.End == nil {
		t.Fatal("page data has no end of the active path")
	}
	return d.Leaf, *d.End, d.Parents
}
