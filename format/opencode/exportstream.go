package opencode

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// msgSource hands out a session's messages a batch at a time: a Doc's, or
// an export document's as they are read (exportSource).
type msgSource interface {
	// take returns the next at most n messages, fewer only at the end; the
	// slice is the caller's.
	take(n int) ([]Msg, error)
}

type sliceSource struct{ msgs []Msg }

func (s *sliceSource) take(n int) ([]Msg, error) {
	k := min(n, len(s.msgs))
	out := s.msgs[:k:k]
	s.msgs = s.msgs[k:]
	return out, nil
}

var (
	errNoInfo     = errors.New("no info object")
	errNoMessages = errors.New("no messages array")
)

// exportSource reads an export document a message at a time: what it holds
// is the session info and the message being read, never the document.
type exportSource struct {
	sc      *docScanner
	info    []byte
	pending []Msg // messages before the info member (a document that puts it last)
	// children, when set, collects the child sessions the messages name as
	// they are read (a document read once, from a pipe)
	children *[]string
}

// openExport reads r up to the info member (holding the messages before
// it, if any: OpenCode writes info first).
func openExport(r io.Reader) (*exportSource, error) {
	s := &exportSource{sc: newDocScanner(r)}
	for s.info == nil {
		p, err := s.sc.next()
		if errors.Is(err, io.EOF) {
			return nil, s.ended()
		}
		if err != nil {
			return nil, readErr(err)
		}
		switch {
		case p.key == "info" && p.index < 0:
			if len(p.raw) == 0 || p.raw[0] != '{' {
				return nil, errNoInfo
			}
			s.info = appendCompact(nil, p.raw)
		case p.key == "messages" && p.index >= 0:
			m, err := decodeMsg(appendCompact(nil, p.raw))
			if err != nil {
				return nil, fmt.Errorf("messages[%d]: %w", p.index, err)
			}
			s.pending = append(s.pending, m)
		}
	}
	return s, nil
}

// ended says what a document that ended lacked, as decodeDoc did.
func (s *exportSource) ended() error {
	if s.info == nil {
		return errNoInfo
	}
	if !s.sc.msgsArray {
		return errNoMessages
	}
	return nil
}

func readErr(err error) error {
	var syn *docSyntax
	switch {
	case errors.Is(err, errBOM):
		return fmt.Errorf("invalid character 'ï' looking for beginning of value")
	case errors.Is(err, errNotObject):
		return errNoInfo
	case errors.As(err, &syn):
		return errors.New(strings.TrimPrefix(syn.msg, "invalid JSON: "))
	}
	return err
}

func (s *exportSource) take(n int) ([]Msg, error) {
	var out []Msg
	for len(s.pending) > 0 && len(out) < n {
		out = append(out, s.pending[0])
		s.pending = s.pending[1:]
	}
	for len(out) < n {
		p, err := s.sc.next()
		if errors.Is(err, io.EOF) {
			return out, s.ended()
		}
		if err != nil {
			return out, readErr(err)
		}
		if p.key != "messages" || p.index < 0 {
			continue
		}
		m, err := decodeMsg(appendCompact(nil, p.raw))
		if err != nil {
			return out, fmt.Errorf("messages[%d]: %w", p.index, err)
		}
		if s.children != nil {
			*s.children = childrenOf(m, *s.children)
			sort.Strings(*s.children)
		}
		out = append(out, m)
	}
	return out, nil
}

// childrenOf adds the child sessions m's task tools name to cs: the call
// carries it in its part's metadata, the result in its state's.
func childrenOf(m Msg, cs []string) []string {
	for _, p := range m.Parts {
		if gjson.GetBytes(p, "type").String() != "tool" {
			continue
		}
		b, res := toolBlocks(p, &session.Entry{})
		if c := gjson.GetBytes(b.Extra.Get("metadata"), "sessionId").String(); c != "" {
			cs = appendUnique(cs, c)
		}
		if res != nil {
			if c := gjson.GetBytes(res.Message.Extra.Get("metadata"), "sessionId").String(); c != "" {
				cs = appendUnique(cs, c)
			}
		}
	}
	return cs
}

// exportFile is an export document read from its file: once for its info,
// its children and its well-formedness (so that a broken document is
// refused before any entry, as when it was read whole), then again for the
// messages.
type exportFile struct {
	info     []byte
	children []string
}

func scanExportFile(path string) (*exportFile, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// What is wrong with the document is said without the path: the
	// caller names the session it could not open.
	s, err := openExport(f)
	if err != nil {
		return nil, err
	}
	ef := &exportFile{info: s.info}
	for {
		ms, err := s.take(batchMsgs)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			ef.children = childrenOf(m, ef.children)
		}
		if len(ms) < batchMsgs {
			return ef, nil
		}
	}
}

func openRegular(path string) (*os.File, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return f, nil
}

// exportStreamReader reads the export document at path a message at a time.
func exportStreamReader(path string, children []string) (session.Reader, error) {
	ef, err := scanExportFile(path)
	if err != nil {
		return nil, err
	}
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	s, err := openExport(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	cs := append(append([]string(nil), children...), ef.children...)
	r := newStreamReader(s, cs, f)
	r.name = path
	return r, nil
}

func newStreamReader(s *exportSource, children []string, c io.Closer) *docReader {
	r := &docReader{meta: metaOf(&Doc{Info: s.info}, nil), src: s, closer: c}
	for _, ch := range children {
		r.meta.Children = appendUnique(r.meta.Children, ch)
	}
	sort.Strings(r.meta.Children)
	r.meta.Origin, r.origin = ExportName, ExportName
	return r
}
