// Package toy is the smallest layout docs/adding-a-layout.md describes: a
// JSON Lines file whose first line is {"toy":1,"id":ID} and every other line
// {"role":ROLE,"text":TEXT}, one message each, linear.
package toy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// Name is the --format name.
const Name = "toy"

type Format struct{}

type header struct {
	Toy int    `json:"toy"`
	ID  string `json:"id"`
}

type line struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return nil }

func (Format) DetectHead(head []byte) bool {
	first, _, _ := bytes.Cut(head, []byte("\n"))
	var h header
	return json.Unmarshal(first, &h) == nil && h.Toy == 1
}

func (f Format) Detect(path string) bool {
	b, err := os.ReadFile(path)
	return err == nil && f.DetectHead(b)
}

func (Format) Sessions(path string) ([]format.Ref, error) {
	return []format.Ref{{Path: path}}, nil
}

func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	return f.ValidateReader(path, fh, rep, opt)
}

func (Format) ValidateReader(name string, r io.Reader, rep *report.Report, _ format.ValidateOptions) error {
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		if n == 1 {
			var h header
			if json.Unmarshal(sc.Bytes(), &h) != nil || h.Toy != 1 || h.ID == "" {
				rep.Errorf(name, n, "", "header", "the first line is not a toy header")
			}
			continue
		}
		var l line
		if json.Unmarshal(sc.Bytes(), &l) != nil || l.Role == "" {
			rep.Errorf(name, n, "", "line", "not a message line")
		}
	}
	if n == 0 {
		rep.Errorf(name, 0, "", "header", "empty file")
	}
	return sc.Err()
}

func (f Format) Open(ref format.Ref) (session.Reader, error) {
	b, err := os.ReadFile(ref.Path)
	if err != nil {
		return nil, err
	}
	return f.OpenReader(ref.Path, bytes.NewReader(b))
}

func (Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	sc := bufio.NewScanner(r)
	s := &session.Session{}
	s.Meta.Origin = Name
	n, prev := 0, ""
	for sc.Scan() {
		n++
		if n == 1 {
			var h header
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
				return nil, fmt.Errorf("%s:1: %v", name, err)
			}
			s.Meta.ID = h.ID
			continue
		}
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		id := fmt.Sprintf("m%d", n)
		s.Entries = append(s.Entries, &session.Entry{Kind: session.KindMessage, ID: id, ParentID: prev,
			Message: &session.Message{Role: session.Role(l.Role), Content: []session.Block{{Type: session.BlockText, Text: l.Text}}},
			Source:  session.Source{Origin: Name, Line: n}})
		prev = id
	}
	return &session.SliceReader{S: s}, sc.Err()
}

func (f Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	return format.WriteFile(Name, out, r, opt, f.WriteTo)
}

func (Format) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	defer r.Close()
	enc := json.NewEncoder(w)
	if err := enc.Encode(header{Toy: 1, ID: r.Meta().ID}); err != nil {
		return err
	}
	return session.Each(r, func(e *session.Entry) error {
		if e.Message == nil {
			return nil
		}
		text := ""
		for _, b := range e.Message.Content {
			if b.Type == session.BlockText {
				text += b.Text
			}
		}
		if opt.Options.Bool(OptShout) {
			text = strings.ToUpper(text)
		}
		return enc.Encode(line{Role: string(e.Message.Role), Text: text})
	})
}

// Caps declares what the layout holds: user and assistant text, in one line.
func (Format) Caps() format.Caps {
	return format.Caps{
		Own:      []string{Name},
		Linear:   true,
		Roles:    []session.Role{session.RoleUser, session.RoleAssistant},
		Fallback: format.FallbackDrop,
		Blocks:   []session.BlockType{session.BlockText},
		IDs:      format.IDStyle{Form: format.IDUUID},
		Times:    format.TimeISO,
	}
}

// OptShout is the writer's own option: every message in capitals.
const OptShout = "shout"

// Traits declares how the layout is handled: its writer streams, and takes
// --shout, which convert offers from this declaration alone.
func (Format) Traits() format.Traits {
	return format.Traits{Options: []format.Option{{Name: OptShout, Switch: true, Usage: "write every message in capitals"}}}
}
