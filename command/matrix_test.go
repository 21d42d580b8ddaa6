package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// The round-trip matrix: every real sample of every layout A, converted to
// every writable layout B and back to A, through the CLI's own Convert (so
// every output is validated by the target layout before it lands). The
// session that comes back must equal the original in everything B can hold
// (holdsOf its capabilities), and the loss report of each conversion must be
// what the target's capabilities predict from the session it was given
// (predict).

// sample is one real input: a session file, directory or store.
type sample struct {
	name   string // row name in the tables
	layout string // the layout it is read as, and converted back to
	path   string // under testdata/samples, under the shared samples for "shared/...", under command/testdata for "fixture/..."
	// exact is how A -> A output maps onto the source files: "file" (one
	// file), "dir" (the source is the container), "sessions" (goat: the
	// container's sessions/ folder); "" when the source is a read-only
	// variant (SQLite, 0.x tree) that A writes in its current form.
	exact string
}

// matrixSamples are the samples each registered writable layout declares
// in format/<x>/testdata/matrix.json, in registry order: a JSON list of
// {name, layout, path, exact}, path under testdata/samples, under the
// shared samples for "shared/...", under command/testdata for
// "fixture/...". A new layout adds its samples there, not here.
var matrixSamples = declaredSamples()

func declaredSamples() []sample {
	var out []sample
	seen := map[string]bool{}
	for _, name := range matrixTargets {
		f, _ := registry.Lookup(name)
		typ := reflect.TypeOf(f)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		p := filepath.Join("..", "format", filepath.Base(typ.PkgPath()), "testdata", "matrix.json")
		if seen[p] {
			continue // one package, two layouts (OpenCode's store and export)
		}
		seen[p] = true
		b, err := os.ReadFile(p)
		if err != nil {
			continue // TestMatrixSamplesDeclared says so
		}
		var decl []struct{ Name, Layout, Path, Exact string }
		if err := json.Unmarshal(b, &decl); err != nil {
			panic(fmt.Sprintf("%s: %v", p, err)) // a test input of our own, read before any test runs
		}
		for _, d := range decl {
			out = append(out, sample{d.Name, d.Layout, d.Path, d.Exact})
		}
	}
	return out
}

// matrixTargets are the writable layouts that declare what they hold, in
// registry order.
var matrixTargets = writableLayouts()

func writableLayouts() []string {
	var out []string
	for _, name := range registry.WriterNames() {
		if f, err := registry.Lookup(name); err == nil {
			if _, ok := format.CapsOf(f); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

// TestMatrixSamplesDeclared: every writable layout declares a sample of
// its own for the matrix.
func TestMatrixSamplesDeclared(t *testing.T) {
	for _, to := range matrixTargets {
		n := 0
		for _, s := range matrixSamples {
			if s.layout == to {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s declares no sample in its format/<x>/testdata/matrix.json", to)
		}
	}
}

func haveLayout(name string) bool { _, err := registry.Lookup(name); return err == nil }

// source is the sample's absolute path. A sample copied from a public
// repository is read from the shared folder, not carried by the project;
// without it the test is skipped (fails under SESSTOOL_REQUIRE_PEERS=1).
func (s sample) source(t *testing.T) string {
	t.Helper()
	if rel, ok := strings.CutPrefix(s.path, "shared/"); ok {
		return shared.Sample(t, rel)
	}
	if rel, ok := strings.CutPrefix(s.path, "fixture/"); ok {
		p, err := filepath.Abs(filepath.Join("testdata", rel)) // a fixture of this package's own
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	return filepath.Join(samplesDir(t), s.path)
}

func samplesDir(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../testdata/samples")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// convertCLI runs Convert as the CLI does and returns its loss report.
func convertCLI(t *testing.T, o ConvertOptions) (lossReport, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, StdinIsData: func() bool { return false }}
	o.LossReport = filepath.Join(t.TempDir(), "loss.json")
	if err := Convert(env, o); err != nil {
		t.Fatalf("convert --from %s --to %s %s: %v\n%s", o.From, o.To, o.Paths[0], err, stderr.String())
	}
	var lr lossReport
	b, err := os.ReadFile(o.LossReport)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &lr); err != nil {
		t.Fatal(err)
	}
	return lr, stderr.String()
}

// sessionsOf reads every session under p as layout.
func sessionsOf(t *testing.T, layout, p string) []*session.Session {
	t.Helper()
	return convo.Sessions(t, layout, p)
}

// TestMatrixSameLayoutExact: for every layout, A -> A through the model gives
// the source bytes back.
func TestMatrixSameLayoutExact(t *testing.T) {
	for _, s := range matrixSamples {
		t.Run(s.name, func(t *testing.T) {
			if !haveLayout(s.layout) {
				t.Skipf("layout %s is not in this build", s.layout)
			}
			src := s.source(t)
			out := filepath.Join(t.TempDir(), "out")
			home := indexes(t, s.layout) && s.exact == "file"
			switch {
			case home:
				// a layout that keeps titles in its home's index (Codex)
				// keeps them only written into a home
				out += string(filepath.Separator)
			case s.exact == "file":
				out += ".out"
			}
			lr, _ := convertCLI(t, ConvertOptions{From: s.layout, To: s.layout, Out: out, Paths: []string{src}})
			if !lr.Lossless {
				t.Errorf("%s -> %s is not lossless: %v", s.layout, s.layout, lr.Losses)
			}
			if home {
				out = placedFile(t, out)
			}
			switch s.exact {
			case "":
				// A read-only variant comes out in the layout's current form;
				// writing that again must give the same bytes.
				again := filepath.Join(t.TempDir(), "again")
				convertCLI(t, ConvertOptions{From: s.layout, To: s.layout, Out: again, Paths: []string{out}})
				compareTrees(t, out, again)
			case "file":
				compareFiles(t, src, out)
			case "dir":
				compareTrees(t, src, out)
			case "sessions":
				compareTrees(t, filepath.Join(src, "sessions"), out)
			case "parent":
				compareTrees(t, filepath.Dir(src), out, filepath.Base(src))
			}
		})
	}
}

// indexes reports whether layout's writer keeps an index in its home
// (format.Indexer).
func indexes(t *testing.T, layout string) bool {
	f, err := registry.Lookup(layout)
	if err != nil {
		t.Fatal(err)
	}
	_, ok := f.(format.Indexer)
	return ok
}

// placedFile is the one session file under the home dir (the home's own
// files, its index, are at its top).
func placedFile(t *testing.T, dir string) string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		// a session file, not the index at the home's top (Codex) nor a
		// side file beside it (Copilot's workspace.yaml)
		if err == nil && d.Type().IsRegular() && filepath.Dir(p) != filepath.Clean(dir) && (filepath.Ext(p) == ".jsonl" || filepath.Ext(p) == ".json") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 1 {
		t.Fatalf("%d sessions written under %s, want 1", len(files), dir)
	}
	return files[0]
}

func compareFiles(t *testing.T, want, got string) {
	t.Helper()
	a, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("%s: output differs from the source (-source +output):\n%s", filepath.Base(want), cmp.Diff(lines(a), lines(b)))
	}
}

func lines(b []byte) []string { return strings.Split(string(b), "\n") }

// compareTrees requires the same files with the same bytes under both roots
// (goat's *.lock files are the agent's own and not session data). With
// only, the source side is limited to those top-level entries, and the
// output's key directory is matched to them by content.
func compareTrees(t *testing.T, want, got string, only ...string) {
	t.Helper()
	w := listFiles(t, want, only)
	g := listFiles(t, got, nil)
	if len(only) > 0 {
		// ash names the directory after the session key, not the fixture.
		w = rebase(w, only[0], g)
	}
	if d := cmp.Diff(keys(w), keys(g)); d != "" {
		t.Fatalf("files differ (-source +output):\n%s", d)
	}
	for rel, p := range w {
		compareFiles(t, p, g[rel])
	}
}

func listFiles(t *testing.T, root string, only []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if len(only) > 0 && rel != "." && strings.Split(rel, string(filepath.Separator))[0] != only[0] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && !strings.HasSuffix(p, ".lock") && filepath.Base(p) != "README.md" {
			out[rel] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func rebase(w map[string]string, from string, g map[string]string) map[string]string {
	to := ""
	for rel := range g {
		to = strings.Split(rel, string(filepath.Separator))[0]
	}
	out := map[string]string{}
	for rel, p := range w {
		out[filepath.Join(to, strings.TrimPrefix(rel, from+string(filepath.Separator)))] = p
	}
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// eachPair runs f as a subtest for every sample and every writable
// target, skipped where this build lacks either layout.
func eachPair(t *testing.T, f func(t *testing.T, s sample, to string)) {
	for _, s := range matrixSamples {
		for _, to := range matrixTargets {
			t.Run(s.name+"->"+to, func(t *testing.T) {
				if !haveLayout(s.layout) || !haveLayout(to) {
					t.Skipf("layout %s or %s is not in this build", s.layout, to)
				}
				f(t, s, to)
			})
		}
	}
}

// roundTrip converts src (layout a, every session in it) to b and back,
// and checks both conversions' loss reports against what their targets'
// capabilities predict from the sessions they were given (predict), what
// b holds of the originals against its declaration (checkHolds), and each
// returned session against its original in what a and b both hold. Whole
// units are converted, not one session at a time, so that a child session
// travels with its parent as it does in a store. It is the matrix's one
// pass over every pair (TestMatrix): each conversion runs once.
func roundTrip(t *testing.T, src, a, b string) {
	t.Helper()
	orig := sessionsOf(t, a, src)
	mid := filepath.Join(t.TempDir(), "b")
	back := filepath.Join(t.TempDir(), "a")
	if isFileLayout(b) {
		mid += ".out"
	}
	if isFileLayout(a) {
		back += ".out"
	}
	l1, _ := convertCLI(t, ConvertOptions{From: a, To: b, Out: mid, Paths: []string{src}})
	predict(orig, capsOf(t, b), isDir(mid)).check(t, a+" -> "+b, l1.Losses)
	inB := sessionsOf(t, b, mid)
	checkHolds(t, orig, inB, capsOf(t, b), isDir(mid))
	l2, _ := convertCLI(t, ConvertOptions{From: b, To: a, Out: back, Paths: []string{mid}})
	predict(inB, capsOf(t, a), isDir(back)).check(t, b+" -> "+a, l2.Losses)
	ret := sessionsOf(t, a, back)
	if n := len(orig) + runsOfTheirOwn(inB, capsOf(t, a), isDir(back)); len(ret) != n {
		t.Fatalf("%d sessions came back, want %d", len(ret), n)
	}
	hold := holdsOf(capsOf(t, a)).and(holdsOf(capsOf(t, b)))
	var got [][]item
	for _, r := range ret {
		got = append(got, essence(r, hold))
	}
	used := make([]bool, len(got))
	for _, s := range orig {
		want := essence(s, hold)
		if i := matchEssence(want, got, used); i >= 0 {
			used[i] = true
			continue
		}
		best := closest(want, got, used)
		t.Errorf("session %s: %s -> %s -> %s changed what both hold (-original +round trip):\n%s", s.Meta.ID, a, b, a, cmp.Diff(want, got[best]))
	}
}

// runsOfTheirOwn counts the sessions of ss that are sub-agent runs another
// session of ss holds too (Gemini CLI's chats/<parentSessionId>/ files,
// sessions of their own as well as runs of their parent's) that come back
// as sessions of their own besides the originals: into a target that keeps
// runs inside their parent (to, in a home when home), convert writes them
// there only, unless the target is their own layout.
func runsOfTheirOwn(ss []*session.Session, to format.Caps, home bool) int {
	if !home {
		to = to.InFile()
	}
	runs := map[string]bool{}
	for _, s := range ss {
		for _, e := range s.Entries {
			if e.Sidechain != "" {
				runs[e.Sidechain] = true
			}
		}
	}
	n := 0
	for _, s := range ss {
		inParent := !to.Owns(s.Meta.Origin) && (to.Sidechains || to.SidechainsInHome)
		if s.Meta.Parent != nil && runs[s.Meta.ID] && !inParent {
			n++
		}
	}
	return n
}

// matchEssence finds an unused returned session equal to want.
func matchEssence(want []item, got [][]item, used []bool) int {
	for i, g := range got {
		if !used[i] && cmp.Equal(want, g) {
			return i
		}
	}
	return -1
}

// closest is the unused returned session sharing the longest prefix with
// want, to show a readable diff.
func closest(want []item, got [][]item, used []bool) int {
	best, bestN := 0, -1
	for i, g := range got {
		n := 0
		for n < len(g) && n < len(want) && cmp.Equal(g[n], want[n]) {
			n++
		}
		if !used[i] && n > bestN {
			best, bestN = i, n
		}
	}
	return best
}

func isFileLayout(name string) bool {
	f, err := registry.Lookup(name)
	if err != nil {
		return false
	}
	_, ok := f.(format.Stream)
	return ok
}

// capability says what a layout can hold, as far as the comparison looks.
type capability struct {
	roles      map[session.Role]bool
	kinds      map[session.Kind]bool // entry kinds other than messages
	thinking   bool
	images     bool // inline images in user messages
	anyImages  bool // inline images in every role
	files      bool // files by URL
	usage      bool
	cwAsInput  bool // cache writes are counted as input
	cost       bool
	isError    bool
	lastText   bool // an assistant message keeps only its last text block
	compaction bool
	// ownThinking: a layout of the pair writes only its own thinking
	// (Claude Code), so a message that held nothing else is left out.
	ownThinking bool
	// answersCalls: a layout of the pair answers a call that has no
	// result with one saying so (Claude Code), which the other reads back.
	answersCalls bool
	asUser       bool // a message of a role the layout lacks becomes a user message (spell.AsUser)
	toolCallOn   map[session.Role]bool
	signatures   map[session.BlockType]bool // block types that keep their signature
}

func (c capability) and(d capability) capability {
	r := capability{roles: map[session.Role]bool{}, kinds: map[session.Kind]bool{}, toolCallOn: map[session.Role]bool{}, signatures: map[session.BlockType]bool{}}
	for k := range c.signatures {
		r.signatures[k] = d.signatures[k]
	}
	for k := range c.roles {
		r.roles[k] = d.roles[k]
	}
	for k := range c.kinds {
		r.kinds[k] = d.kinds[k]
	}
	for k := range c.toolCallOn {
		r.toolCallOn[k] = d.toolCallOn[k]
	}
	r.thinking, r.images, r.anyImages, r.files = c.thinking && d.thinking, c.images && d.images, c.anyImages && d.anyImages, c.files && d.files
	r.usage, r.cost, r.isError = c.usage && d.usage, c.cost && d.cost, c.isError && d.isError
	r.cwAsInput = c.cwAsInput || d.cwAsInput
	r.lastText = c.lastText || d.lastText
	r.compaction = c.compaction && d.compaction
	r.ownThinking, r.answersCalls = c.ownThinking || d.ownThinking, c.answersCalls || d.answersCalls
	// A message of a role b (d) lacks meets b's writer first: b's
	// fallback decides whether it comes back as a user message.
	r.asUser = d.asUser
	return r
}

func set[K comparable](ks ...K) map[K]bool {
	m := map[K]bool{}
	for _, k := range ks {
		m[k] = true
	}
	return m
}

const (
	user, assistant, tool, system = session.RoleUser, session.RoleAssistant, session.RoleTool, session.RoleSystem
)

// holdsOf is what the comparison looks at of a layout's declaration.
// A layout that writes only its own thinking (Claude Code) carries none
// through a round trip with another.
func holdsOf(c format.Caps) capability {
	compaction := c.HoldsKind(session.KindCompaction) || c.ConvertsKind(session.KindCompaction)
	kinds := set(c.Kinds...)
	kinds[session.KindCompaction] = compaction
	return capability{roles: set(c.Roles...), kinds: kinds,
		thinking: c.HoldsBlock(session.BlockThinking) && !c.ThinkingOwnOnly, images: c.ImagesFor(user), anyImages: c.HoldsBlock(session.BlockImage) && c.ImagesOn == nil,
		files: c.HoldsBlock(session.BlockFile), usage: c.Usage, cwAsInput: c.CacheWriteAsInput, cost: c.Cost, isError: c.IsError, lastText: c.LastText,
		compaction: compaction, asUser: c.Fallback == format.FallbackUser, toolCallOn: set(c.ToolCallOn...), signatures: signaturesOf(c),
		ownThinking: c.ThinkingOwnOnly, answersCalls: c.CallsNeedResults}
}

// item is what the comparison sees of one entry on the active path.
type item struct {
	Role     string
	Text     string   `json:",omitempty"`
	Thinking string   `json:",omitempty"`
	Calls    []string `json:",omitempty"` // id name args
	Result   string   `json:",omitempty"` // call id, error flag
	Images   []string `json:",omitempty"` // mime and data length
	Files    []string `json:",omitempty"`
	Usage    string   `json:",omitempty"`
	Signed   []string `json:",omitempty"` // block type and signature, where kept
	Time     string   `json:",omitempty"` // user and assistant messages, to the second (flat's entry times have no fraction)
}

// essence is a session's active path (main conversation only: sub-agent
// runs and goat's transcript are side files) as items, limited to what c
// holds. Ids are not compared: every layout has its own form.
func essence(s *session.Session, c capability) []item {
	var main []*session.Entry
	for _, e := range s.Entries {
		if e.Sidechain == "" {
			main = append(main, e)
		}
	}
	path, _ := convtree.ActivePath(main, s.Meta.MessageLinks)
	var all []item
	calls := map[string]bool{}
	for _, e := range path {
		for _, it := range itemsOf(e, c) {
			for _, call := range it.Calls {
				calls[strings.Fields(call)[0]] = true
			}
			all = append(all, it)
		}
	}
	// A result whose call the layout cannot hold (ash allows a call on a
	// user message) goes with its call.
	var out []item
	for _, it := range all {
		if it.Role == "tool" && !calls[strings.Fields(it.Result + " x")[0]] {
			continue
		}
		out = append(out, it)
	}
	return numberCalls(out)
}

// numberCalls spells each call's id as its place among the calls and each
// result's reference as the place of the call it answers, so that what is
// compared is which result answers which call, not the id's spelling: a call
// with no id (Codex's web search) gets one from a layout that requires it.
func numberCalls(items []item) []item {
	place := map[string]string{}
	n := 0
	for i := range items {
		for j, call := range items[i].Calls {
			id, rest, _ := strings.Cut(call, " ")
			n++
			p := fmt.Sprintf("#%d", n)
			if id != "" {
				place[id] = p
			}
			items[i].Calls[j] = p + " " + rest
		}
	}
	for i := range items {
		if p, ok := place[items[i].Result]; ok {
			items[i].Result = p
		}
	}
	return items
}

func itemsOf(e *session.Entry, c capability) []item {
	if e.Kind == session.KindCompaction && e.Compaction != nil {
		if !c.compaction {
			return nil
		}
		return []item{{Role: "compaction", Text: e.Compaction.Summary}}
	}
	if e.Message == nil || (e.Kind != session.KindMessage && e.Kind != session.KindCustomMessage) {
		if c.kinds[e.Kind] {
			return []item{{Role: string(e.Kind)}}
		}
		return nil
	}
	m := e.Message
	role := m.Role
	if role == session.RoleDeveloper && c.roles[system] {
		role = system
	}
	if !c.roles[role] && c.asUser && role != tool {
		m, role = spell.AsUser(m), user
	}
	if !c.roles[role] {
		return nil
	}
	if c.ownThinking && onlyThinking(m) {
		return nil
	}
	var results []item
	it := item{Role: string(role)}
	var texts []string
	var thinking []string
	for _, b := range m.Content {
		if b.Signature != "" && c.signatures[b.Type] {
			it.Signed = append(it.Signed, string(b.Type)+" "+b.Signature)
		}
		switch b.Type {
		case session.BlockText:
			texts = append(texts, b.Text)
		case session.BlockThinking:
			if c.thinking {
				thinking = append(thinking, b.Text)
			}
		case session.BlockImage:
			if c.anyImages || (c.images && role == user) {
				it.Images = append(it.Images, fmt.Sprintf("%s %d", b.MimeType, len(b.Data)))
			}
		case session.BlockFile:
			if c.files {
				it.Files = append(it.Files, b.MimeType+" "+b.URL)
			}
		case session.BlockToolCall:
			if c.toolCallOn[role] {
				it.Calls = append(it.Calls, b.ToolCallID+" "+b.ToolName+" "+canonJSON(b.Arguments))
			}
		case session.BlockToolResult:
			results = append(results, resultItem(b.ToolCallID, b.Text, b.IsError, c))
		}
	}
	if role == tool {
		if c.answersCalls && m.Text() == convert.NoResult {
			return nil
		}
		return []item{resultItem(m.ToolCallID, m.Text(), m.IsError, c)}
	}
	if c.answersCalls && role == user && allNoResult(texts) {
		return results
	}
	if c.lastText && role == assistant && len(texts) > 1 {
		texts = texts[len(texts)-1:]
	}
	if role == user || role == assistant {
		tm := e.Time.T
		if tm.IsZero() {
			tm = m.Time.T
		}
		it.Time = tm.UTC().Format(time.RFC3339)
	}
	it.Text = strings.Join(texts, "\n")
	it.Thinking = strings.Join(thinking, "\n")
	// Zero tokens say nothing: a layout that writes no usage for them
	// (Codex writes no token_count) loses nothing.
	if u := m.Usage; c.usage && u != nil && role == assistant && u.Input|u.Output|u.CacheRead|u.CacheWrite|int64(u.TotalTokens()) != 0 {
		u := m.Usage
		in, write := u.Input, u.CacheWrite
		if c.cwAsInput {
			in, write = in+write, 0
		}
		it.Usage = fmt.Sprintf("in %d out %d cache %d/%d", in, u.Output, u.CacheRead, write)
		if c.cost && u.Cost != nil {
			it.Usage += fmt.Sprintf(" $%.9f", math.Round(u.Cost.Total*1e9)/1e9)
		}
	}
	if len(results) > 0 && it.Text == "" && len(it.Images) == 0 && len(it.Calls) == 0 {
		return results // ash: a user message that only carries results
	}
	return append([]item{it}, results...)
}

// onlyThinking reports whether m holds thinking and nothing else.
func onlyThinking(m *session.Message) bool {
	thinking := false
	for _, b := range m.Content {
		if b.Type != session.BlockThinking {
			return false
		}
		thinking = true
	}
	return thinking
}

// allNoResult reports whether texts are only the results a layout that
// answers every call wrote for calls that had none (read back as text).
func allNoResult(texts []string) bool {
	if len(texts) == 0 {
		return false
	}
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			if l != convert.NoResult {
				return false
			}
		}
	}
	return true
}

func resultItem(callID, text string, isError bool, c capability) item {
	r := item{Role: "tool", Text: text, Result: callID}
	if c.isError && isError {
		r.Result += " error"
	}
	return r
}

func canonJSON(b json.RawMessage) string {
	if len(b) == 0 {
		return "{}"
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return string(b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// signaturesOf are the block types whose signature a layout carries
// through a round trip: not thinking for one that writes only its own.
func signaturesOf(c format.Caps) map[session.BlockType]bool {
	out := set(c.Signatures...)
	if c.ThinkingOwnOnly {
		delete(out, session.BlockThinking)
	}
	return out
}
