package goat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// TranscriptType is the Custom.CustomType of a transcript.jsonl line carried
// through the model as a KindOther entry.
const TranscriptType = "goat.transcript"

// Open streams one session: Meta (metadata.json and the checkpoints), then the
// transcript.jsonl lines as KindOther entries, then the messages.
func (f Format) Open(ref format.Ref) (session.Reader, error) {
	dir := ref.Path
	if !isSession(dir) && ref.ID != "" {
		if !safeName(ref.ID) {
			return nil, fmt.Errorf("open %s: bad session id %q", dir, ref.ID)
		}
		dir = filepath.Join(dir, ref.ID)
	}
	meta, err := readMeta(dir)
	if err != nil {
		return nil, err
	}
	r := &reader{dir: dir, meta: meta, calls: map[string]string{}}
	if err := r.open(TranscriptFile); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if r.file == nil {
		if err := r.open(MessagesFile); err != nil {
			return nil, err
		}
	}
	return r, nil
}

type reader struct {
	dir      string
	meta     *session.Meta
	file     *os.File
	name     string
	lines    *jsonl.Reader
	prev     string            // the previous entry's id in the current file
	calls    map[string]string // tool call id -> tool name
	finished bool
}

func (r *reader) open(name string) error {
	p := filepath.Join(r.dir, name)
	f, err := regfile.Open(p)
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	r.file, r.name, r.lines, r.prev = f, name, jsonl.NewHeldReader(f), ""
	return nil
}

func (r *reader) Meta() *session.Meta { return r.meta }

func (r *reader) Close() error {
	if r.file != nil {
		err := r.file.Close()
		r.file = nil
		return err
	}
	return nil
}

func (r *reader) Next() (*session.Entry, error) {
	for r.file != nil {
		l, err := r.lines.NextNonBlank()
		if errors.Is(err, io.EOF) {
			wasTranscript := r.name == TranscriptFile
			r.Close()
			if wasTranscript {
				if err := r.open(MessagesFile); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", filepath.Join(r.dir, r.name), err)
		}
		raw := bytes.Clone(l.Bytes)
		if !json.Valid(raw) {
			return nil, fmt.Errorf("%s:%d: not valid JSON", filepath.Join(r.dir, r.name), l.N)
		}
		var e *session.Entry
		if r.name == TranscriptFile {
			e = transcriptEntry(raw)
		} else {
			e, err = r.messageEntry(raw)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", filepath.Join(r.dir, r.name), l.N, err)
			}
		}
		e.ParentID, r.prev = r.prev, e.ID
		e.Origin, e.Raw, e.Line = Name, raw, l.N
		return e, nil
	}
	return nil, io.EOF
}

// transcriptEntry carries an SDK message verbatim: the model has no slot for
// a second, richer copy of the conversation. These entries form their own
// chain (Sidechain "transcript") before the messages, so the leaf stays the
// last message.
func transcriptEntry(raw []byte) *session.Entry {
	v := gjson.ParseBytes(raw)
	return &session.Entry{
		Kind:      session.KindOther,
		Type:      "transcript:" + v.Get("type").Str,
		ID:        v.Get("uuid").Str,
		Sidechain: "transcript",
		Time:      session.Time{},
		Custom:    &session.Custom{CustomType: TranscriptType, Data: raw},
	}
}

func (r *reader) messageEntry(raw []byte) (*session.Entry, error) {
	e := &session.Entry{Kind: session.KindMessage, Type: "message"}
	var msg []byte
	err := jsonx.Members(raw, func(k string, v []byte) {
		switch k {
		case "uuid":
			e.ID = str(v)
		case "timestamp":
			e.Time, _ = session.ParseTime(str(v))
		case "message":
			msg = v
		default:
			e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(v)})
		}
	})
	if err != nil {
		return nil, err
	}
	if msg == nil {
		return nil, fmt.Errorf("no message")
	}
	m, err := r.message(msg)
	if err != nil {
		return nil, err
	}
	e.Message = m
	return e, nil
}

func (r *reader) message(raw []byte) (*session.Message, error) {
	m := &session.Message{}
	var calls []session.Block
	err := jsonx.Members(raw, func(k string, v []byte) {
		switch k {
		case "role":
			m.Role = session.Role(str(v))
		case "content":
			readContent(m, v)
		case "tool_calls":
			_ = jsonx.Elements(v, func(_ int, c []byte) { calls = append(calls, toolCall(c)) })
		case "tool_call_id":
			m.ToolCallID = str(v)
		default:
			m.Extra = append(m.Extra, session.Field{Key: k, Value: bytes.Clone(v)})
		}
	})
	if err != nil {
		return nil, fmt.Errorf("message: %w", err)
	}
	for _, c := range calls {
		r.calls[c.ToolCallID] = c.ToolName
	}
	if m.Role == session.RoleTool {
		m.ToolName = r.calls[m.ToolCallID] // derived, for other writers; goat does not store it
	}
	m.Content = append(m.Content, calls...)
	return m, nil
}

func readContent(m *session.Message, v []byte) {
	switch gjson.ParseBytes(v).Type {
	case gjson.Null:
		m.ContentIsNull = true
	case gjson.String:
		m.ContentIsString = true
		m.Content = []session.Block{{Type: session.BlockText, Text: str(v)}}
	default:
		_ = jsonx.Elements(v, func(_ int, p []byte) { m.Content = append(m.Content, part(p)) })
	}
}

// part maps a ContentPart: text, or image_url (a data: URI becomes MimeType +
// Data; any other URL stays a URL). Members the model has no slot for go to
// Extra; image_url's own members are prefixed "image_url.".
func part(raw []byte) session.Block {
	b := session.Block{}
	typ := gjson.GetBytes(raw, "type").Str
	_ = jsonx.Members(raw, func(k string, v []byte) {
		switch {
		case k == "type":
			switch typ {
			case "text":
				b.Type = session.BlockText
			case "image_url":
				b.Type = session.BlockImage
			default:
				b.Type = session.BlockType(typ)
				b.Extra.Set("type", bytes.Clone(v))
			}
		case k == "text" && typ == "text":
			b.Text = str(v)
		case k == "image_url" && typ == "image_url" && gjson.ParseBytes(v).IsObject():
			_ = jsonx.Members(v, func(ik string, iv []byte) {
				if ik == "url" {
					setURL(&b, str(iv))
					return
				}
				b.Extra = append(b.Extra, session.Field{Key: "image_url." + ik, Value: bytes.Clone(iv)})
			})
		default:
			b.Extra = append(b.Extra, session.Field{Key: k, Value: bytes.Clone(v)})
		}
	})
	return b
}

func setURL(b *session.Block, u string) {
	if rest, ok := strings.CutPrefix(u, "data:"); ok {
		if head, data, ok := strings.Cut(rest, ","); ok {
			if mime, ok := strings.CutSuffix(head, ";base64"); ok && !strings.Contains(mime, ";") {
				b.MimeType, b.Data = mime, data
				return
			}
		}
	}
	b.URL = u
}

// callNote is the reader's Private note on a tool call block.
type callNote struct {
	Type bool // the call has "type":"function"
}

// toolCall maps {index?, id?, type?, function:{name?, arguments}}. Arguments
// holds the decoded JSON text; when it is not JSON it is kept as a string in
// Extra "function.arguments" instead.
func toolCall(raw []byte) session.Block {
	b := session.Block{Type: session.BlockToolCall}
	_ = jsonx.Members(raw, func(k string, v []byte) {
		switch k {
		case "id":
			b.ToolCallID = str(v)
		case "type":
			if string(v) == `"function"` {
				// The only type a tool call has: the block's own, spelled.
				b.Source = session.Source{Origin: Name, Private: &callNote{Type: true}}
				return
			}
			b.Extra = append(b.Extra, session.Field{Key: k, Value: bytes.Clone(v)})
		case "function":
			_ = jsonx.Members(v, func(fk string, fv []byte) {
				switch fk {
				case "name":
					b.ToolName = str(fv)
				case "arguments":
					if s := str(fv); gjson.ParseBytes(fv).Type == gjson.String && json.Valid([]byte(s)) {
						b.Arguments = json.RawMessage(s)
						return
					}
					b.Extra = append(b.Extra, session.Field{Key: "function.arguments", Value: bytes.Clone(fv)})
				default:
					b.Extra = append(b.Extra, session.Field{Key: "function." + fk, Value: bytes.Clone(fv)})
				}
			})
		default:
			b.Extra = append(b.Extra, session.Field{Key: k, Value: bytes.Clone(v)})
		}
	})
	return b
}

// str decodes a JSON string value ("" for anything else).
func str(v []byte) string {
	r := gjson.ParseBytes(v)
	if r.Type != gjson.String {
		return ""
	}
	return r.Str
}

// readMeta reads metadata.json and the checkpoint manifests.
func readMeta(dir string) (*session.Meta, error) {
	p := filepath.Join(dir, MetadataFile)
	raw, err := regfile.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	m := &session.Meta{Source: session.Source{Origin: Name, Raw: raw}}
	var parent session.Parent
	err = jsonx.Members(raw, func(k string, v []byte) {
		switch k {
		case "id":
			m.ID = str(v)
		case "cwd":
			m.Cwd = str(v)
		case "model":
			m.Model = str(v)
		case "parent_session_id":
			parent.SessionID = str(v)
		case "fork_point_uuid":
			parent.EntryID = str(v)
		case "created_at":
			m.Created, _ = session.ParseTime(str(v))
		case "updated_at":
			m.Updated, _ = session.ParseTime(str(v))
		case "leaf_title":
			m.Title = str(v)
		default:
			m.Extra = append(m.Extra, session.Field{Key: k, Value: compact(v)})
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if parent.SessionID != "" || parent.EntryID != "" {
		m.Parent = &parent
	}
	m.Checkpoints, err = readCheckpoints(dir)
	return m, err
}

func compact(v []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return bytes.Clone(v)
	}
	return b.Bytes()
}

func readCheckpoints(dir string) ([]session.Checkpoint, error) {
	cdir := filepath.Join(dir, CheckpointsDir)
	ents, err := os.ReadDir(cdir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", cdir, err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	var out []session.Checkpoint
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		cp, err := readCheckpoint(filepath.Join(cdir, e.Name()))
		if errors.Is(err, os.ErrNotExist) {
			continue // no manifest: not a checkpoint (validate reports it as missing-manifest)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, cp)
	}
	return out, nil
}

func readCheckpoint(cdir string) (session.Checkpoint, error) {
	p := filepath.Join(cdir, ManifestFile)
	raw, err := regfile.ReadFile(p)
	if err != nil {
		return session.Checkpoint{}, fmt.Errorf("read %s: %w", p, err)
	}
	v := gjson.ParseBytes(raw)
	if !v.IsObject() {
		return session.Checkpoint{}, fmt.Errorf("%s: not a JSON object", p)
	}
	cp := session.Checkpoint{ID: filepath.Base(cdir), MessageID: v.Get("user_message_uuid").Str, Raw: raw}
	cp.Created, _ = session.ParseTime(v.Get("created_at").Str)
	for _, f := range v.Get("files").Array() {
		fs := session.FileState{Path: f.Get("path").Str, Exists: f.Get("exists").Bool(), Hash: f.Get("hash").Str, Size: f.Get("size").Int()}
		if fs.Exists && isHash(fs.Hash) {
			fs.Blob = filepath.Join(cdir, BlobsDir, fs.Hash)
		}
		cp.Files = append(cp.Files, fs)
	}
	return cp, nil
}
