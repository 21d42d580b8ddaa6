package goat

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
	"github.com/tidwall/gjson"
)

// Write writes one session as out/<id>/. A goat-origin session comes back
// byte for byte (every entry is encoded from the model and merged with the
// bytes it was read from); any other session is what the adaptation kept of
// it for goat (its active path), which counted what goat cannot hold.
//
// The active path is only known once the leaf (the last entry) has been
// seen: with opt.Reopen the session is read twice (ids and links first),
// without it is held in memory.
func (Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	meta := *r.Meta()
	ids := spell.NewIDs(caps.IDs, &meta, 0)
	if meta.Origin != Name {
		goatIDs(&meta, ids)
	}
	id := meta.ID
	if !safeName(id) {
		r.Close()
		return nil, fmt.Errorf("write goat session: session id %q cannot be a directory name", id)
	}
	walk, entries, err := entriesOf(r, opt)
	if err != nil {
		return nil, err
	}
	defer entries.Close()
	dir := filepath.Join(out, id)
	if _, err := os.Stat(dir); err == nil && !opt.Force {
		return nil, fmt.Errorf("%s: %w", dir, atomicfile.ErrExists)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("write %s: %w", dir, err)
	}
	w := &writer{dir: dir, opt: opt, meta: &meta, ids: ids, entries: entries, written: []string{dir}} // the session directory first
	plan, err := w.plan(walk)
	if err != nil {
		return w.written, err
	}
	for _, cp := range meta.Checkpoints {
		if err := w.checkpoint(cp); err != nil {
			return w.written, err
		}
	}
	if err := w.file(MetadataFile, encodeMetadata(&meta, plan)); err != nil {
		return w.written, err
	}
	return w.written, nil
}

// walkFunc calls f with each entry to write and whether it belongs on
// messages.jsonl (else it is a transcript entry or off the path).
type walkFunc func(f func(e *session.Entry, on bool) error) error

// entriesOf is how the entries of r are walked. A session from another
// layout is what convert.Adapt kept of it for goat (the active path, the
// roles goat has), all of it written; goat's own is indexed apart from its
// transcript, which goat writes beside the conversation.
func entriesOf(r session.Reader, opt format.WriteOptions) (walkFunc, session.Reader, error) {
	if r.Meta().Origin != Name {
		return func(f func(*session.Entry, bool) error) error {
			return session.Each(r, func(e *session.Entry) error { return f(e, true) })
		}, r, nil
	}
	x, entries, err := convtree.Index(r, opt.Reopen, addEntry)
	if err != nil {
		return nil, nil, err
	}
	x.Plan()
	return func(f func(*session.Entry, bool) error) error { return x.Walk(entries, f) }, entries, nil
}

// addEntry indexes one entry: goat writes its transcript entries apart,
// never as part of the conversation.
func addEntry(x *convtree.PathIndex, e *session.Entry) {
	if isTranscript(e) {
		x.Skip()
	} else {
		x.Add(e)
	}
}

// goatIDs gives a session from another layout goat's own id form (a UUID,
// spell.SessionID); a fork's parent id is derived the same way, so it
// names the parent converted alongside it.
func goatIDs(m *session.Meta, ids *spell.IDs) {
	m.ID = ids.Session()
	if m.Parent != nil && m.Parent.SessionID != "" {
		p := *m.Parent
		p.SessionID = spell.ParentSessionID(caps.IDs, p.SessionID)
		m.Parent = &p
	}
}

type writer struct {
	dir     string
	opt     format.WriteOptions
	meta    *session.Meta
	ids     *spell.IDs     // message ids of another layout's session
	entries session.Reader // what is walked
	written []string
}

func (w *writer) file(name string, data []byte) error {
	p := filepath.Join(w.dir, name)
	if err := atomicfile.WriteFile(p, data, 0o644, w.opt.Force); err != nil {
		return err
	}
	w.written = append(w.written, p)
	return nil
}

// lineFile is a JSONL file being written atomically, a line at a time.
type lineFile struct {
	path string
	f    *atomicfile.File
	w    *bufio.Writer
	n    int // lines written
	err  error
	done bool
}

func (w *writer) createLines(name string) (*lineFile, error) {
	p := filepath.Join(w.dir, name)
	f, err := atomicfile.Create(p, 0o644, w.opt.Force)
	if err != nil {
		return nil, err
	}
	return &lineFile{path: p, f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

func (l *lineFile) line(b []byte) {
	if l.err != nil {
		return
	}
	l.w.Write(b)
	if err := l.w.WriteByte('\n'); err != nil {
		l.err = fmt.Errorf("write %s: %w", l.path, err)
	}
	l.n++
}

func (l *lineFile) commit() error {
	if l.err == nil {
		l.err = l.w.Flush()
	}
	if l.err != nil {
		return l.err
	}
	l.done = true
	return l.f.Commit()
}

func (l *lineFile) abort() {
	if !l.done {
		l.done = true
		l.f.Abort()
	}
}

// checkpoint writes checkpoints/<id>/manifest.json and copies each blob,
// checking its SHA-256 on the way.
func (w *writer) checkpoint(cp session.Checkpoint) error {
	if !safeName(cp.ID) {
		return fmt.Errorf("write goat session: checkpoint id %q cannot be a directory name", cp.ID)
	}
	cdir := filepath.Join(CheckpointsDir, cp.ID)
	if err := os.MkdirAll(filepath.Join(w.dir, cdir, BlobsDir), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(w.dir, cdir), err)
	}
	for _, f := range cp.Files {
		if !f.Exists {
			continue
		}
		if f.Blob == "" {
			continue // no content: dropped by the adaptation (Caps.SnapshotsNeedContent)
		}
		if !isHash(f.Hash) {
			return fmt.Errorf("write goat session: checkpoint %s: file %s has a blob but no SHA-256 to name it by", cp.ID, f.Path)
		}
		if err := w.copyBlob(f, filepath.Join(cdir, BlobsDir, f.Hash)); err != nil {
			return err
		}
	}
	return w.file(filepath.Join(cdir, ManifestFile), encodeManifest(cp, w.meta.Origin == Name))
}

func (w *writer) copyBlob(f session.FileState, name string) error {
	p := filepath.Join(w.dir, name)
	if _, err := os.Stat(p); err == nil {
		return nil // content-addressed: already written for another entry
	}
	src, err := regfile.Open(f.Blob)
	if err != nil {
		return fmt.Errorf("read %s: %w", f.Blob, err)
	}
	defer src.Close()
	dst, err := atomicfile.Create(p, 0o644, w.opt.Force)
	if err != nil {
		return err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(dst, h), src); err != nil {
		dst.Abort()
		return fmt.Errorf("copy %s: %w", f.Blob, err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != f.Hash {
		dst.Abort()
		return fmt.Errorf("copy %s: SHA-256 is %s, not %s", f.Blob, sum, f.Hash)
	}
	if err := dst.Commit(); err != nil {
		return err
	}
	w.written = append(w.written, p)
	return nil
}

// indent spells compact JSON as Go's json.MarshalIndent(v, "", "  ") does,
// which is how goat writes metadata.json and manifest.json (no final newline).
func indent(compact []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "  "); err != nil {
		return compact
	}
	return b.Bytes()
}

// merged returns canon spelled as raw (a pretty-printed file) where they agree.
func merged(raw, canon []byte) []byte {
	if raw == nil {
		return canon
	}
	var c bytes.Buffer
	if err := json.Compact(&c, raw); err != nil {
		return canon
	}
	return jsonx.Merge(c.Bytes(), canon)
}

func encodeManifest(cp session.Checkpoint, goatOrigin bool) []byte {
	canon := canonManifest(cp, goatOrigin)
	if goatOrigin {
		return indent(merged(cp.Raw, canon))
	}
	return indent(canon)
}

func canonManifest(cp session.Checkpoint, goatOrigin bool) []byte {
	// session.Checkpoint has no Extras: members goat may add later are taken
	// from the manifest as read (Checkpoint.Raw), so they are not lost.
	var top, perFile [][]session.Field
	if goatOrigin && cp.Raw != nil {
		top = [][]session.Field{unknownMembers(cp.Raw, "user_message_uuid", "created_at", "files")}
		_ = jsonx.Elements(gjsonRaw(cp.Raw, "files"), func(_ int, f []byte) {
			perFile = append(perFile, unknownMembers(f, "path", "exists", "hash", "size"))
		})
	}
	o := &jsonx.Obj{}
	o.Str("user_message_uuid", cp.MessageID)
	o.Str("created_at", timeString(cp.Created, goatOrigin))
	if cp.Files == nil {
		o.Null("files")
	} else {
		var files [][]byte
		for i, f := range cp.Files {
			fo := &jsonx.Obj{}
			fo.Str("path", f.Path).Bool("exists", f.Exists)
			if f.Hash != "" {
				fo.Str("hash", f.Hash)
			}
			if f.Size != 0 {
				fo.Int("size", f.Size)
			}
			if len(perFile) == len(cp.Files) {
				for _, x := range perFile[i] {
					fo.Raw(x.Key, x.Value)
				}
			}
			files = append(files, fo.Bytes())
		}
		o.Raw("files", jsonx.Arr(files))
	}
	for _, t := range top {
		for _, x := range t {
			o.Raw(x.Key, x.Value)
		}
	}
	return o.Bytes()
}

// unknownMembers returns obj's members other than known, compacted, in order.
func unknownMembers(obj []byte, known ...string) []session.Field {
	var out []session.Field
	_ = jsonx.Members(obj, func(k string, v []byte) {
		for _, n := range known {
			if n == k {
				return
			}
		}
		out = append(out, session.Field{Key: k, Value: compact(v)})
	})
	return out
}

func gjsonRaw(obj []byte, key string) []byte { return []byte(gjson.GetBytes(obj, key).Raw) }

// canonMetadata spells metadata.json in agent.SessionMetadata's field order.
func canonMetadata(m *session.Meta, p *plan) []byte {
	goatOrigin := m.Origin == Name
	o := &jsonx.Obj{}
	o.Str("id", m.ID).Str("cwd", m.Cwd).Str("model", p.model)
	if m.Parent != nil && m.Parent.SessionID != "" {
		o.Str("parent_session_id", m.Parent.SessionID)
	}
	if fp := forkPoint(m, p); fp != "" {
		o.Str("fork_point_uuid", fp)
	}
	o.Str("created_at", timeString(p.created, goatOrigin))
	o.Str("updated_at", timeString(p.updated, goatOrigin))
	if goatOrigin {
		for _, k := range []string{"message_count", "turn_count", "total_cost_usd"} {
			if v := m.Extra.Get(k); v != nil {
				o.Raw(k, v)
			}
		}
	} else {
		o.Int("message_count", int64(p.messages.n))
		o.Int("turn_count", int64(p.turns))
		o.Float("total_cost_usd", p.cost)
	}
	if p.title != "" {
		o.Str("leaf_title", p.title)
	}
	if goatOrigin {
		for _, f := range m.Extra {
			if f.Key != "message_count" && f.Key != "turn_count" && f.Key != "total_cost_usd" {
				o.Raw(f.Key, f.Value)
			}
		}
	}
	return o.Bytes()
}

// forkPoint is the fork_point_uuid of a fork: a message uuid, which goat's
// Fork keeps in the parent and the child alike. A fork from another layout
// names its fork entry in its own id form (flat: 8 hex digits, the last
// message it copied from its parent, which it holds too), so the uuid is the
// one written for that message (the last, for a user message of tool
// results written as tool messages); "" when none was written, a loss the
// adaptation counted (Caps.ForkPointKept).
func forkPoint(m *session.Meta, p *plan) string {
	switch {
	case m.Parent == nil || m.Parent.EntryID == "":
		return ""
	case m.Origin == Name || spell.IsUUID(m.Parent.EntryID):
		return m.Parent.EntryID
	}
	return p.forkPoint
}

func encodeMetadata(m *session.Meta, p *plan) []byte {
	canon := canonMetadata(m, p)
	if m.Origin == Name {
		return indent(merged(m.Raw, canon))
	}
	return indent(canon)
}
