package copilot

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/session"
)

// CLIVersion is the Copilot CLI release whose event log sesstool writes:
// every event it writes passes that release's own schema
// (schemas/session-events.schema.json, schema/copilot/v1).
const CLIVersion = "1.0.102"

// Write writes one session to the file out (created; replaced only with
// opt.Force) and returns its path. Copilot CLI finds a session at
// session-state/<id>/events.jsonl under its home (Place).
func (f Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	return format.WriteFile(Name, out, r, opt, f.WriteTo)
}

// WriteTo writes one session to w as an event log, line by line. A session
// read from Copilot's log gives back its lines byte for byte; one from
// another layout, adapted to the caps first (convert.For), is spelt as
// Copilot CLI 1.0.102 does, each event chained to the one before.
func (f Format) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	defer r.Close()
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := newEncoder(bw, r.Meta(), opt)
	enc.start()
	err := session.Each(r, enc.entry)
	if err == nil {
		err = enc.finish()
	}
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// SessionID is the id a session is written under: its own when it is a
// UUID (Copilot's session ids are), else one derived from it.
func SessionID(m *session.Meta) string { return spell.SessionID(caps.IDs, m, 0) }

// Place is where convert writes a session into a directory, which is then
// a Copilot home: session-state/<id>/events.jsonl, where Copilot CLI lists
// and resumes it.
func (Format) Place(m *session.Meta) string {
	return StateDir + "/" + SessionID(m) + "/" + EventsFile
}

// Index writes, beside each session convert placed in a home, the
// workspace.yaml Copilot CLI keeps with it (id, cwd, created and updated
// times, the name), unless one is already there: the one read with a
// session of Copilot's own is written back as it was.
func (Format) Index(home string, sessions []*session.Meta) error {
	for _, m := range sessions {
		id := SessionID(m)
		p := filepath.Join(home, StateDir, id, WorkspaceFile)
		if _, err := os.Stat(p); err == nil {
			continue
		}
		af, err := atomicfile.Create(p, 0o644, false)
		if err != nil {
			return err
		}
		body := workspaceYAML(id, m)
		if n, ok := m.Private.(metaNote); ok && m.Origin == Name && n.ws.name == m.Title {
			body = string(n.ws.raw) // Copilot's own, as it was
		}
		if _, err := io.WriteString(af, body); err != nil {
			af.Abort()
			return fmt.Errorf("write %s: %w", p, err)
		}
		if err := af.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// workspaceYAML is the workspace.yaml of the session m describes, with the
// members Copilot CLI writes for a session it did not name.
func workspaceYAML(id string, m *session.Meta) string {
	var b strings.Builder
	fmt.Fprintf(&b, "id: %s\n", id)
	if m.Cwd != "" {
		fmt.Fprintf(&b, "cwd: %s\n", yamlString(m.Cwd))
	}
	b.WriteString("user_named: false\nsummary_count: 0\n")
	if !m.Created.T.IsZero() {
		fmt.Fprintf(&b, "created_at: %s\n", spell.ISO(m.Created.T))
	}
	if u := m.Updated; !u.T.IsZero() {
		fmt.Fprintf(&b, "updated_at: %s\n", spell.ISO(u.T))
	} else if !m.Created.T.IsZero() {
		fmt.Fprintf(&b, "updated_at: %s\n", spell.ISO(m.Created.T))
	}
	if m.Title != "" {
		fmt.Fprintf(&b, "name: %s\n", yamlString(m.Title))
	}
	return b.String()
}

// yamlString is s as a YAML scalar: plain when it is safely so, else a
// double-quoted JSON string (which YAML reads the same).
func yamlString(s string) string {
	plain := s != "" && !strings.ContainsAny(s, ":#'\"\n\r\t{}[],&*!|>%@`") && strings.TrimSpace(s) == s
	if plain {
		return s
	}
	return fmt.Sprintf("%q", s)
}
