package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A source is one real Claude Code session: its transcript and the
// folder of the same name beside it (sub-agents, tool results).
type source struct {
	file, side string
	size       int64
	id, cwd    string
	lines      [][]byte // the transcript
	sideFiles  map[string][]byte
}

var uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// genClaudeStore writes a Claude Code store (projects/<encoded cwd>/) of n
// sessions of about size bytes in all, each a copy of a real session of
// dir whose every UUID (session, messages, tool uses) is replaced by one
// derived from the copy's number, so that no two copies share an id and
// none is taken for another's resumption. Copies of the largest session
// are mixed in as often as it takes to reach size.
func genClaudeStore(dir, out string, n int, size int64) error {
	srcs, err := claudeSources(dir)
	if err != nil {
		return err
	}
	if len(srcs) == 0 {
		return fmt.Errorf("no Claude Code session with a UUID session id under %s", dir)
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].size > srcs[j].size })
	big, small := srcs[0], srcs[1:]
	var total int64
	k := 0
	for i := range n {
		s := big
		// the largest while behind the even share of size, else the next small one
		if total >= size*int64(i+1)/int64(n) && len(small) > 0 {
			s = small[k%len(small)]
			k++
		}
		w, err := writeCopy(s, out, i)
		if err != nil {
			return err
		}
		total += w
	}
	fmt.Printf("%d sessions, %d bytes\n", n, total)
	return nil
}

func claudeSources(dir string) ([]*source, error) {
	var out []*source
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".jsonl") || strings.HasPrefix(d.Name(), "agent-") || strings.Contains(p, "/subagents/") {
			return nil
		}
		// an older layout keeps sub-agents beside the session: not self-contained
		if m, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "agent-*.jsonl")); len(m) > 0 {
			return nil
		}
		s, err := readSource(p)
		if err != nil || s == nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

func readSource(p string) (*source, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	s := &source{file: p, size: int64(len(b)), sideFiles: map[string][]byte{}}
	id := ""
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := append([]byte(nil), sc.Bytes()...)
		s.lines = append(s.lines, line)
		var h struct {
			SessionID string `json:"sessionId"`
			Cwd       string `json:"cwd"`
		}
		if json.Unmarshal(line, &h) == nil {
			if id == "" && h.SessionID != "" {
				id = h.SessionID
			}
			if s.cwd == "" && h.Cwd != "" {
				s.cwd = h.Cwd
			}
		}
	}
	if !uuidRE.MatchString(id) || s.cwd == "" {
		return nil, nil // a copy could not be given an id of its own
	}
	s.id = id
	// sub-agents and tool results are in a folder named after the session
	// (or after the file, when the file is not named after its session)
	side := strings.TrimSuffix(p, ".jsonl")
	if fi, err := os.Stat(side); err == nil && fi.IsDir() {
		s.side = side
		err := filepath.WalkDir(side, func(q string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(q)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(side, q)
			s.sideFiles[rel] = b
			s.size += int64(len(b))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// writeCopy writes copy i of s and returns the bytes written.
func writeCopy(s *source, out string, i int) (int64, error) {
	remap := func(b []byte) []byte {
		return uuidRE.ReplaceAllFunc(b, func(u []byte) []byte {
			h := fmt.Sprintf("%x", sha256.Sum256(fmt.Appendf(nil, "%d/%s", i, u)))
			return []byte(h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32])
		})
	}
	base := string(remap([]byte(s.id))) // the file is named after the session
	proj := filepath.Join(out, "projects", strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, s.cwd))
	if err := os.MkdirAll(proj, 0o755); err != nil {
		return 0, err
	}
	f, err := os.Create(filepath.Join(proj, base+".jsonl"))
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	for _, l := range s.lines {
		m, _ := w.Write(remap(l))
		w.WriteByte('\n')
		n += int64(m) + 1
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	for rel, b := range s.sideFiles {
		q := filepath.Join(proj, base, string(remap([]byte(rel))))
		if err := os.MkdirAll(filepath.Dir(q), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(q, remap(b), 0o644); err != nil {
			return 0, err
		}
		n += int64(len(b))
	}
	return n, nil
}
