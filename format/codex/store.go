package codex

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/tidwall/gjson"
)

// DefaultStore is Codex's home: $CODEX_HOME, else ~/.codex.
func (Format) DefaultStore() string { return format.EnvOrHome("CODEX_HOME", ".codex") }

// isHome reports whether dir is a Codex home: a session_index.jsonl, or a
// sessions/ or archived_sessions/ folder holding Codex's year folders or
// rollout files (other agents keep a sessions/ folder too).
func isHome(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	if fi, err := os.Stat(filepath.Join(dir, IndexFile)); err == nil && fi.Mode().IsRegular() {
		return true
	}
	for _, sub := range []string{SessionsDir, ArchivedDir} {
		ents, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			continue
		}
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() && yearDir.MatchString(n) || !e.IsDir() && strings.HasPrefix(n, "rollout-") {
				return true
			}
		}
	}
	return false
}

var yearDir = regexp.MustCompile(`^[0-9]{4}$`)

// Sessions lists the one session a rollout file holds, or every rollout
// of a Codex home (sessions/ then archived_sessions/, by path).
func (f Format) Sessions(path string) ([]format.Ref, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !fi.IsDir() {
		return []format.Ref{{Path: path}}, nil
	}
	if !isHome(path) {
		return nil, fmt.Errorf("read %s: not a Codex home (no %s/, %s/ or %s)", path, SessionsDir, ArchivedDir, IndexFile)
	}
	files, err := rollouts(path)
	if err != nil {
		return nil, err
	}
	refs := make([]format.Ref, len(files))
	for i, p := range files {
		refs[i] = format.Ref{Path: p}
	}
	return refs, nil
}

// rollouts lists the rollout files under a home's sessions/ and
// archived_sessions/ folders, each sorted by path (so by date).
func rollouts(home string) ([]string, error) {
	var out []string
	for _, sub := range []string{SessionsDir, ArchivedDir} {
		root := filepath.Join(home, sub)
		if _, err := os.Stat(root); err != nil {
			continue
		}
		var found []string
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return fmt.Errorf("read %s: %w", p, err)
			}
			if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && strings.HasPrefix(d.Name(), "rollout-") && (strings.HasSuffix(d.Name(), ".jsonl") || strings.HasSuffix(d.Name(), ".json")) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// homeOf is the Codex home a rollout file lies in
// (home/sessions/YYYY/MM/DD/f, home/sessions/f or home/archived_sessions/f),
// or "".
func homeOf(path string) string {
	dir := filepath.Dir(path)
	for i := 0; i < 4; i++ {
		base := filepath.Base(dir)
		if base == SessionsDir || base == ArchivedDir {
			return filepath.Dir(dir)
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

// threadName is the session's name, looked up as Codex 0.169 does: a name
// in the home's state database first (stateTitle), else the last line
// for the id in session_index.jsonl (returned too, as it was read), else
// "". A hostile or corrupt state database is an error naming it.
func threadName(home, id string) (string, []byte, error) {
	if home == "" || id == "" {
		return "", nil, nil
	}
	if name, err := stateTitle(home, id); name != "" || err != nil {
		return name, nil, err
	}
	e := indexName(home, id)
	return e.name, e.raw, nil
}

// indexName is the last line session_index.jsonl has for thread id.
func indexName(home, id string) indexEntry {
	fh, err := os.Open(filepath.Join(home, IndexFile))
	if err != nil {
		return indexEntry{}
	}
	defer fh.Close()
	names, _ := indexNames(fh, map[string]string{id: ""})
	return names[id]
}

// indexEntry is a thread's name in session_index.jsonl and the line that
// gives it, as read.
type indexEntry struct {
	name string
	raw  []byte
}

// indexNames is the last line the index has for each thread of want.
// Codex appends {"id","thread_name","updated_at"} on each rename and takes
// the last line for an id, whatever its time; a line without updated_at
// it does not read.
func indexNames(r io.Reader, want map[string]string) (map[string]indexEntry, error) {
	out := map[string]indexEntry{}
	lr := jsonl.NewReader(r)
	for {
		l, err := lr.NextNonBlank()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		v := gjson.ParseBytes(l.Bytes)
		id := v.Get("id").String()
		if _, ok := want[id]; ok && v.Get("thread_name").Type == gjson.String && v.Get("updated_at").Type == gjson.String {
			out[id] = indexEntry{v.Get("thread_name").String(), bytes.Clone(l.Bytes)}
		}
	}
}

// legacyDocMax bounds the TypeScript era's JSON documents detection reads
// whole; they held one short session each.
const legacyDocMax = 64 << 20

// isLegacyDoc reports whether path is the TypeScript CLI's rollout, one
// JSON document {"session":{"id",...},"items":[...]}.
func isLegacyDoc(path string, head []byte) bool {
	h := bytes.TrimLeft(format.TrimBOM(head), " \t\r\n")
	if len(h) == 0 || h[0] != '{' || !bytes.Contains(h, []byte(`"session"`)) || manyValues(h) {
		return false
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > legacyDocMax {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	return legacyDoc(format.TrimBOM(b))
}

// manyValues reports whether head starts with a line that is a JSON value
// of its own, followed by more than white space: JSON Lines (a tree
// session's header holds "session" too), which no one document can be, so
// the file need not be read whole to tell.
func manyValues(head []byte) bool {
	i := bytes.IndexByte(head, '\n')
	return i >= 0 && gjson.ValidBytes(head[:i]) && len(bytes.TrimSpace(head[i:])) > 0
}

// legacyDoc reports whether b is the TypeScript era's document.
func legacyDoc(b []byte) bool {
	if !gjson.ValidBytes(b) {
		return false
	}
	v := gjson.ParseBytes(b)
	return v.IsObject() && v.Get("session").IsObject() && v.Get("session.id").Type == gjson.String && v.Get("items").IsArray()
}

// homeContents is what a Codex home holds. The layout reads the rollouts
// under sessions/ and archived_sessions/ (at any depth, as rollouts lists
// them) and the thread names of session_index.jsonl and state.db; every
// other entry at the top is Codex's own (config.toml, auth.json,
// history.jsonl, log/, the state database's WAL, caches) and expected.
var homeContents = format.Contents{
	Read: []string{
		SessionsDir + "/**/rollout-*.jsonl", SessionsDir + "/**/rollout-*.json",
		ArchivedDir + "/**/rollout-*.jsonl", ArchivedDir + "/**/rollout-*.json",
		IndexFile, StateDB,
	},
	Known: []string{"*"},
}

// Unread lists what the sessions folders of a Codex home hold that is not
// a rollout: the walk reports it.
func (Format) Unread(path string) []format.Stray {
	if !isHome(path) {
		return nil // a rollout file
	}
	return homeContents.Strays(path)
}
