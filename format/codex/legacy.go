package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// peek is the input with its first bytes looked at.
type peek struct{ *bufio.Reader }

func newPeek(r io.Reader) peek { return peek{bufio.NewReaderSize(r, 64<<10)} }

// docStart matches the start of the TypeScript era's document: an object
// whose first member is "session" or "items", or a lone "{" on line 1.
var docStart = regexp.MustCompile(`^(\xef\xbb\xbf)?\s*\{\s*("session"|"items")\s*:`)

func (p peek) isDoc() (bool, error) {
	head, err := p.Peek(4 << 10)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return false, err
	}
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		if bytes.Equal(bytes.TrimSpace(format.TrimBOM(head[:i])), []byte("{")) {
			return true, nil
		}
		line = head[:i]
	}
	return docStart.Match(line), nil
}

// readDoc reads the TypeScript era's rollout, one JSON document
// {"session":{"id","timestamp","instructions",...},"items":[...]}: its
// session is the Meta, each item an entry as a response_item line would be.
// The document is small (it held one short session) and is read whole.
func readDoc(name string, r io.Reader, c io.Closer) (session.Reader, error) {
	b, err := io.ReadAll(io.LimitReader(r, legacyDocMax+1))
	if c != nil {
		c.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(b) > legacyDocMax {
		return nil, fmt.Errorf("%s: a Codex JSON document larger than %d MiB", name, legacyDocMax>>20)
	}
	b = format.TrimBOM(b)
	if !legacyDoc(b) {
		return nil, fmt.Errorf("%s: not a Codex rollout: a JSON document without session.id and items", name)
	}
	v := gjson.ParseBytes(b)
	s := v.Get("session")
	meta := decodeMeta(record{typ: "session_meta", payload: s, time: s.Get("timestamp").String()}, json.RawMessage(s.Raw))
	meta.Private = &metaNote{doc: true}
	meta.Extra = append(meta.Extra, extras(v, "session", "items")...)
	meta.Line = 0
	out := &session.Session{Meta: *meta}
	d := decoder{start: meta.Created}
	prev := ""
	i := 0
	v.Get("items").ForEach(func(_, it gjson.Result) bool {
		i++
		e := d.entry(record{typ: "response_item", payload: it, bare: true}, json.RawMessage(it.Raw), 0)
		e.ID = session.DerivedID(meta.ID, i+1, nil)
		e.ParentID, prev = prev, e.ID
		out.Entries = append(out.Entries, e)
		return true
	})
	return &session.SliceReader{S: out}, nil
}
