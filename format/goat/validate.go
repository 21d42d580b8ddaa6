package goat

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// Schema files, under schema/.
const (
	schemaMetadata   = "goat/v1/metadata.json"
	schemaLine       = "goat/v1/line.json"
	schemaTranscript = "goat/v1/transcript-line.json"
	schemaManifest   = "goat/v1/manifest.json"
)

// Validate checks one session directory, or every session of a store.
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	if isSession(path) {
		return validateSession(path, rep, opt)
	}
	for _, p := range storeSessions(path) {
		if err := validateSession(p, rep, opt); err != nil {
			return err
		}
	}
	return nil
}

func validateSession(dir string, rep *report.Report, opt format.ValidateOptions) error {
	v := &sessionCheck{dir: dir, rep: rep}
	meta, err := v.metadata()
	if err != nil {
		return err
	}
	n, err := v.messages(opt)
	if err != nil {
		return err
	}
	v.messageCount(meta, n)
	v.parent(meta)
	if err := v.transcript(opt); err != nil {
		return err
	}
	return v.checkpoints()
}

type sessionCheck struct {
	dir  string
	rep  *report.Report
	meta []byte // metadata.json as read, to locate findings in it
}

func (v *sessionCheck) path(name ...string) string {
	return filepath.Join(append([]string{v.dir}, name...)...)
}

// readJSONFile reads one JSON file and applies its schema. It returns the
// parsed value, or an invalid result after reporting why.
func (v *sessionCheck) readJSONFile(p, schemaName string) (gjson.Result, []byte, error) {
	b, err := regfile.ReadFile(p)
	if err != nil {
		return gjson.Result{}, nil, fmt.Errorf("read %s: %w", p, err)
	}
	v.rep.Counted(Name, 1, 0)
	if bytes.HasPrefix(b, format.BOM) {
		v.rep.Add(format.BOMFinding(p))
		return gjson.Result{}, b, nil
	}
	if col, msg, bad := jsonx.SyntaxError(b); bad {
		line, c := lineCol(b, col)
		rule := "json-syntax"
		if msg == "invalid UTF-8" {
			rule = "invalid-utf8"
		}
		v.rep.Add(report.Finding{Path: p, Line: line, Column: c, Severity: report.Error, Rule: rule, Message: msg})
		return gjson.Result{}, b, nil
	}
	if f, dup := validate.DuplicateKeyAt(p, b, 1, 1); dup {
		v.rep.Add(f) // Go's encoding/json reads the last value, sesstool the first
	}
	schemaCheck(v.rep, p, schemaName, b)
	return gjson.ParseBytes(b), b, nil
}

// schemaCheck validates a whole JSON file; findings are at the line of the
// value their pointer names.
func schemaCheck(rep *report.Report, p, name string, b []byte) {
	d := schema.Doc{Path: p, LineOf: func(ptr string) int { return pointerLine(b, ptr) }}
	for _, f := range d.Check(name, b) {
		rep.Add(f)
	}
}

// lineCol turns a 1-based character column over the whole file into a line
// and a column within it.
func lineCol(b []byte, col int) (int, int) {
	line, c := 1, 0
	for _, r := range string(b) {
		c++
		if c >= col {
			break
		}
		if r == '\n' {
			line++
			col -= c
			c = 0
		}
	}
	return line, col
}

func (v *sessionCheck) metadata() (gjson.Result, error) {
	p := v.path(MetadataFile)
	m, b, err := v.readJSONFile(p, schemaMetadata)
	if err != nil || !m.Exists() {
		return m, err
	}
	v.meta = b
	if id := m.Get("id"); id.Type == gjson.String && id.Str != filepath.Base(v.dir) {
		v.rep.Errorf(p, pointerLine(b, "/id"), "/id", "id-mismatch", "id %q is not the session directory's name %q", id.Str, filepath.Base(v.dir))
	}
	for _, k := range []string{"created_at", "updated_at"} {
		checkTime(v.rep, p, pointerLine(b, "/"+k), "/"+k, m.Get(k))
	}
	return m, nil
}

// checkTime reports a timestamp that Go's time.Parse(RFC3339Nano) would refuse
// (the schema's pattern cannot check the calendar: month 13, hour 25).
func checkTime(rep *report.Report, p string, line int, ptr string, t gjson.Result) {
	if t.Type != gjson.String {
		return
	}
	if _, err := time.Parse(time.RFC3339Nano, t.Str); err != nil {
		rep.Errorf(p, line, ptr, "bad-timestamp", "%q is not an RFC 3339 time", t.Str)
	}
}

func (v *sessionCheck) messages(opt format.ValidateOptions) (int, error) {
	p := v.path(MessagesFile)
	f, err := regfile.Open(p)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	sch, err := schema.Compile(schemaLine)
	if err != nil {
		return 0, err
	}
	r := &messageRules{path: p, rep: v.rep, schema: sch, ids: map[string]int{}, calls: map[string]bool{}}
	n, err := (&validate.JSONL{Path: p, Rules: r, Report: v.rep, Workers: opt.Workers}).Run(f)
	v.rep.Counted(Name, 1, n)
	return n, err
}

func (v *sessionCheck) messageCount(meta gjson.Result, n int) {
	mc := meta.Get("message_count")
	if mc.Type == gjson.Number && mc.Int() != int64(n) {
		v.rep.Errorf(v.path(MetadataFile), pointerLine(v.meta, "/message_count"), "/message_count", "message-count", "message_count is %d but %s has %d messages", mc.Int(), MessagesFile, n)
	}
}

// parent checks parent_session_id against the sibling session directories.
// With no sibling session at all (a session copied out of its store), the
// link cannot be checked, which is a warning, not an error.
func (v *sessionCheck) parent(meta gjson.Result) {
	pid := meta.Get("parent_session_id")
	if pid.Type != gjson.String || pid.Str == "" {
		return
	}
	p := v.path(MetadataFile)
	store := filepath.Dir(v.dir)
	if safeName(pid.Str) && isSession(filepath.Join(store, pid.Str)) {
		return
	}
	line := pointerLine(v.meta, "/parent_session_id")
	if !hasSibling(store, v.dir) {
		v.rep.Warnf(p, line, "/parent_session_id", "parent-unchecked", "parent session %q cannot be checked: no sibling session directories", pid.Str)
		return
	}
	v.rep.Errorf(p, line, "/parent_session_id", "unknown-parent", "parent session %q is not a session directory next to this one", pid.Str)
}

// hasSibling reports whether store holds a session directory other than dir;
// it stops at the first one, so a large store is not read in full per session.
func hasSibling(store, dir string) bool {
	ents, err := os.ReadDir(store)
	if err != nil {
		return false
	}
	for _, e := range ents {
		p := filepath.Join(store, e.Name())
		if p != dir && e.IsDir() && !strings.HasPrefix(e.Name(), ".") && isSession(p) {
			return true
		}
	}
	return false
}

func (v *sessionCheck) transcript(opt format.ValidateOptions) error {
	p := v.path(TranscriptFile)
	f, err := regfile.Open(p)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	sch, err := schema.Compile(schemaTranscript)
	if err != nil {
		return err
	}
	id := filepath.Base(v.dir)
	r := &transcriptRules{path: p, rep: v.rep, schema: sch, id: id}
	n, err := (&validate.JSONL{Path: p, Rules: r, Report: v.rep, Workers: opt.Workers}).Run(f)
	v.rep.Counted(Name, 1, n)
	return err
}

// checkpoints checks every checkpoints/<id>/manifest.json and its blobs.
func (v *sessionCheck) checkpoints() error {
	ents, err := os.ReadDir(v.path(CheckpointsDir))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", v.path(CheckpointsDir), err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if err := v.checkpoint(e.Name()); err != nil {
			return err
		}
	}
	return nil
}

func (v *sessionCheck) checkpoint(id string) error {
	p := v.path(CheckpointsDir, id, ManifestFile)
	if _, err := os.Stat(p); os.IsNotExist(err) {
		v.rep.Errorf(p, 0, "", "missing-manifest", "checkpoint %q has no %s", id, ManifestFile)
		return nil
	}
	m, b, err := v.readJSONFile(p, schemaManifest)
	if err != nil || !m.Exists() {
		return err
	}
	checkTime(v.rep, p, pointerLine(b, "/created_at"), "/created_at", m.Get("created_at"))
	for i, fe := range m.Get("files").Array() {
		if err := v.blob(p, b, id, i, fe); err != nil {
			return err
		}
	}
	return nil
}

// blob checks one manifest entry with exists:true: files/<hash> is there, its
// SHA-256 is its name, and its length is the size when one is given.
func (v *sessionCheck) blob(p string, manifest []byte, id string, i int, fe gjson.Result) error {
	if !fe.Get("exists").Bool() {
		return nil
	}
	hash := fe.Get("hash").Str
	ptr := fmt.Sprintf("/files/%d", i)
	if !isHash(hash) {
		return nil // the schema reported it
	}
	bp := v.path(CheckpointsDir, id, BlobsDir, hash)
	f, err := regfile.Open(bp)
	if os.IsNotExist(err) {
		v.rep.Errorf(p, pointerLine(manifest, ptr+"/hash"), ptr+"/hash", "missing-blob", "%s: blob %s/%s is missing", fe.Get("path").Str, BlobsDir, hash)
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", bp, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fmt.Errorf("read %s: %w", bp, err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != hash {
		v.rep.Errorf(p, pointerLine(manifest, ptr+"/hash"), ptr+"/hash", "blob-hash", "%s: blob %s/%s has SHA-256 %s", fe.Get("path").Str, BlobsDir, hash, sum)
	}
	if sz := fe.Get("size"); sz.Exists() && sz.Int() != n {
		v.rep.Errorf(p, pointerLine(manifest, ptr+"/size"), ptr+"/size", "blob-size", "%s: size is %d but blob %s/%s has %d bytes", fe.Get("path").Str, sz.Int(), BlobsDir, hash, n)
	}
	return nil
}

func isHash(s string) bool { return spell.IsSHA256(s) }

// pointerLine returns the 1-based line of the value a JSON pointer names in
// a (pretty-printed) JSON file, or of the nearest existing ancestor; 0 when
// the pointer is empty, so findings about the whole file stay at line 0.
func pointerLine(b []byte, ptr string) int {
	if ptr == "" || b == nil {
		return 0
	}
	toks := strings.Split(ptr[1:], "/")
	for len(toks) > 0 {
		var path []string
		for _, t := range toks {
			t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
			path = append(path, gjsonEscape(t))
		}
		if r := gjson.GetBytes(b, strings.Join(path, ".")); r.Exists() && r.Index > 0 {
			return 1 + bytes.Count(b[:r.Index], []byte{'\n'})
		}
		toks = toks[:len(toks)-1]
	}
	return 0
}

// gjsonEscape escapes gjson's path syntax characters in one key.
func gjsonEscape(k string) string {
	var sb strings.Builder
	for _, c := range k {
		if strings.ContainsRune(".*?|#@\\!=<>%", c) {
			sb.WriteByte('\\')
		}
		sb.WriteRune(c)
	}
	return sb.String()
}
