package opencode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// ProjectFor returns the project id OpenCode (through 1.14) gives a
// directory: the lexically smallest root commit of its git repository when
// the directory exists here and is in one, else "global".
func ProjectFor(dir string) string {
	if dir == "" || !isDir(dir) {
		return "global"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "rev-list", "--max-parents=0", "--all")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "global"
	}
	roots := strings.Fields(string(out))
	if len(roots) == 0 {
		return "global"
	}
	sort.Strings(roots)
	return roots[0]
}

// Units commits a session's parts, then its messages, then its own files,
// each directory whole, and its session file last: OpenCode lists sessions
// by that file, so a session appears only once everything it refers to is
// there. The migration marker and project files belong to the store: an
// existing one is never replaced.
func (Format) Units() format.Units {
	return format.Units{
		Each:   []string{"part/*", "message/*", "todo/*", "session_diff/*", "session/*/*"},
		Shared: []string{"migration", "project/*"},
	}
}

type file struct {
	path string
	data []byte
	keep bool // shared file (project, migration): written only when absent
}

// treeWriter writes a session as OpenCode 1.x writes its storage: one
// pretty-printed file per key, no trailing newline, a message's files as
// the message is made. Without force a file that exists is refused
// (writeOne); on any error every file it wrote is removed again.
//
// What it wrote is noted in few bytes (a session of a million messages is
// two million files): a message's file by its id, a part's by its id after
// its message's, each a record of log; only the directories other than the
// parts' (one a message) are kept by name.
type treeWriter struct {
	root, cwd string
	force     bool
	sid       string
	started   bool
	session   string   // the session's own file
	made      bool     // the session's own file was written by this writer
	others    []string // the other files written but messages' and parts'
	log       []byte   // records: 'm' message id, 'p' part id (of the last message), each ending in NUL
	dirs      map[string]bool
	partDir   string // the part directory made ready last (partDirs)
}

// Records of treeWriter.log.
const (
	recMessage = 'm'
	recPart    = 'p'
)

// head writes the store's files and the session's own, from d's Info.
func (t *treeWriter) head(d *Doc) error {
	t.started = true
	t.sid = d.ID()
	if !isID("ses", t.sid) {
		return fmt.Errorf("session id %q is not an OpenCode id", t.sid)
	}
	files := []file{{path: filepath.Join(t.root, "migration"), data: []byte("2"), keep: true}}
	switch {
	case d.Project != nil && gjson.GetBytes(d.Project, "id").String() == d.ProjectID:
		files = append(files, file{filepath.Join(t.root, "project", d.ProjectID+".json"), d.Project, true})
	case d.ProjectID != "global":
		var o, tm jsonx.Obj
		now := gjson.GetBytes(d.Info, "time.created").Int()
		o.Str("id", d.ProjectID).Str("worktree", t.cwd).Str("vcs", "git").Raw("sandboxes", []byte("[]")).
			Raw("time", tm.Int("created", now).Int("updated", now).Bytes())
		files = append(files, file{filepath.Join(t.root, "project", d.ProjectID+".json"), o.Bytes(), true})
	}
	sessionFile := filepath.Join(t.root, "session", d.ProjectID, t.sid+".json")
	files = append(files, file{path: sessionFile, data: d.Info})
	if !t.force && fileExists(sessionFile) {
		return fmt.Errorf("%s: %w", sessionFile, atomicfile.ErrExists)
	}
	t.session = sessionFile
	for _, f := range files {
		if f.keep && fileExists(f.path) {
			continue
		}
		if err := t.write(f); err != nil {
			return err
		}
	}
	return nil
}

// write writes f and notes it.
func (t *treeWriter) write(f file) error {
	if err := writeOne(f, t.force, t.ready); err != nil {
		return err
	}
	if f.path == t.session {
		t.made = true
	} else {
		t.others = append(t.others, f.path)
	}
	return nil
}

// ready makes sure dir exists, once: a part directory (one a message) is
// only remembered until the next one, the others by name.
func (t *treeWriter) ready(dir string) error {
	if dir == t.partDir || t.dirs[dir] {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if filepath.Dir(dir) == filepath.Join(t.root, "part") {
		t.partDir = dir
		t.dirs[filepath.Dir(dir)] = true
	} else {
		t.dirs[dir] = true
	}
	return nil
}

// message writes one message's file and its parts'.
func (t *treeWriter) message(m *Msg) error {
	mid := gjson.GetBytes(m.Info, "id").String()
	if !isID("msg", mid) {
		return fmt.Errorf("message id %q is not an OpenCode id", mid)
	}
	for _, p := range m.Parts {
		if pid := gjson.GetBytes(p, "id").String(); !isID("prt", pid) {
			return fmt.Errorf("part id %q is not an OpenCode id", pid)
		}
	}
	if err := writeOne(file{path: t.messageFile(mid), data: m.Info}, t.force, t.ready); err != nil {
		return err
	}
	t.note(recMessage, mid)
	for _, p := range m.Parts {
		pid := gjson.GetBytes(p, "id").String()
		if err := writeOne(file{path: t.partFile(mid, pid), data: p}, t.force, t.ready); err != nil {
			return err
		}
		t.note(recPart, pid)
	}
	return nil
}

func (t *treeWriter) messageFile(mid string) string {
	return filepath.Join(t.root, "message", t.sid, mid+".json")
}

func (t *treeWriter) partFile(mid, pid string) string {
	return filepath.Join(t.root, "part", mid, pid+".json")
}

func (t *treeWriter) note(rec byte, id string) {
	t.log = append(t.log, rec)
	t.log = append(t.log, id...)
	t.log = append(t.log, 0)
}

// eachWritten calls fn for each message and part file written, in the
// order written; a part directory comes once, after its last file.
func (t *treeWriter) eachWritten(fn func(path string, dir bool)) {
	var mid, partDir string
	for rest := t.log; len(rest) > 0; {
		end := bytes.IndexByte(rest, 0)
		rec, id := rest[0], string(rest[1:end])
		rest = rest[end+1:]
		if rec == recMessage {
			if partDir != "" {
				fn(partDir, true)
				partDir = ""
			}
			mid = id
			fn(t.messageFile(mid), false)
			continue
		}
		fn(t.partFile(mid, id), false)
		partDir = filepath.Join(t.root, "part", mid)
	}
	if partDir != "" {
		fn(partDir, true)
	}
}

// paths is what Write returns.
func (t *treeWriter) paths() []string {
	return append([]string{t.session}, t.others...)
}

// tail writes the session's todo and diff files.
func (t *treeWriter) tail(d *Doc) error {
	if d.Todo != nil {
		if err := t.write(file{path: filepath.Join(t.root, "todo", t.sid+".json"), data: d.Todo}); err != nil {
			return err
		}
	}
	if d.Diff != nil {
		return t.write(file{path: filepath.Join(t.root, "session_diff", t.sid+".json"), data: d.Diff})
	}
	return nil
}

// undo removes what the writer wrote, and the directories it left empty, so
// a refused session leaves nothing in the stage: the session file is
// removed only when this writer made it.
func (t *treeWriter) undo() {
	if t.made {
		os.Remove(t.session)
	}
	for _, p := range t.others {
		os.Remove(p)
	}
	// a part directory holds only parts: it goes (when empty) after them
	t.eachWritten(func(p string, dir bool) {
		if !dir || p != t.partDir {
			os.Remove(p)
		}
	})
	dirs := make([]string, 0, len(t.dirs)+1)
	if t.partDir != "" {
		dirs = append(dirs, t.partDir) // made ready: its first part may have been refused
	}
	for d := range t.dirs {
		for ; d != t.root && strings.HasPrefix(d, t.root); d = filepath.Dir(d) {
			dirs = append(dirs, d)
		}
	}
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		os.Remove(d) // only an empty one goes
	}
}

// writeOne writes one file of the tree. The tree is written into a
// staging directory the pipeline then moves into place (pipeline.Stage),
// so a temporary file, sync and rename per file (two syncs each: a store
// of 20,000 messages took minutes) buy nothing: the whole tree is synced
// once at the end (syncTree).
func writeOne(f file, force bool, ready func(dir string) error) error {
	if err := ready(filepath.Dir(f.path)); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	fh, err := atomicfile.OpenFile(f.path, flag, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s: %w", f.path, atomicfile.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	_, err = fh.Write(pretty(f.data))
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.path)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// syncFiles makes each written file and the new entries of each
// directory durable, one sync each: the fallback where the whole
// filesystem cannot be synced at once.
func (t *treeWriter) syncFiles() error {
	var err error
	sync := func(p string, dir bool) {
		if err != nil {
			return
		}
		if dir {
			if fh, oerr := os.Open(p); oerr == nil { // some filesystems do not open directories
				atomicfile.Sync(fh)
				fh.Close()
			}
			return
		}
		fh, oerr := os.OpenFile(p, os.O_WRONLY, 0)
		if oerr != nil {
			err = fmt.Errorf("write %s: %w", p, oerr)
			return
		}
		serr := atomicfile.Sync(fh)
		fh.Close()
		if serr != nil {
			err = fmt.Errorf("write %s: %w", p, serr)
		}
	}
	if t.made {
		sync(t.session, false)
	}
	for _, p := range t.others {
		sync(p, false)
	}
	t.eachWritten(sync)
	for d := range t.dirs {
		sync(d, true)
	}
	return err
}

func fileExists(p string) bool { _, err := os.Lstat(p); return err == nil }

// Write writes one session into the storage root out (out/session/...),
// filed under the project id given as its option (OptProject), or the one
// OpenCode would choose for the session's directory. With opt.Reopen the
// session is read twice (its tool results and first time, then its
// entries: encodeInput) and each message's files are written as it is
// made; without it the session is held.
//
// It returns the session's own file, then the other files it wrote but
// the messages' and parts' (under message/<session>/ and part/<message>/):
// a session of a million messages would make a list of two million paths.
func (Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	t, err := writeTree(r, out, opt)
	if err != nil {
		return nil, err
	}
	return t.paths(), nil
}

// writeTree writes the session and returns what wrote it, which knows what
// it wrote.
func writeTree(r session.Reader, out string, opt format.WriteOptions) (*treeWriter, error) {
	s, rs, next, done, err := encodeInput(r, opt)
	if err != nil {
		return nil, err
	}
	defer done()
	project := opt.Options.String(OptProject)
	if project == "" && (!ours(s.Meta.Origin) || fromDB(s)) {
		// A session read from an OpenCode JSON tree or export keeps the
		// project it is filed under (toDocEach takes it from the session), so
		// A -> A is exact. One from a database, like one of any other
		// layout, is filed where OpenCode looks for its directory: a
		// database's project ids are not the ones the JSON tree's OpenCode
		// computes, which would list it only under --project global.
		project = ProjectFor(s.Meta.Cwd)
	}
	t := &treeWriter{root: out, cwd: s.Meta.Cwd, force: opt.Force, dirs: map[string]bool{}}
	d, err := toDocEach(s, rs, next, project, func(d *Doc, m *Msg) error {
		if !t.started {
			if err := t.head(d); err != nil {
				return err
			}
		}
		return t.message(m)
	})
	if err == nil && !t.started {
		err = t.head(d)
	}
	if err == nil {
		err = t.tail(d)
	}
	if err == nil {
		if !atomicfile.Skip() {
			err = syncTree(out, t.syncFiles)
		}
	}
	if err != nil {
		t.undo()
		return nil, err
	}
	return t, nil
}

// fromDB: the session was read from an opencode.db.
func fromDB(s *session.Session) bool {
	n := notes[metaNote](&s.Meta.Source)
	return n != nil && n.FromDB
}

// Encode returns the export document of one session, as OpenCode prints it.
func Encode(r session.Reader, opt format.WriteOptions) ([]byte, error) {
	var buf bytes.Buffer
	if err := encodeTo(&buf, r, opt); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encodeTo writes the export document of one session to w a message at a
// time: the bytes JSON.stringify(doc, null, 2) makes (pretty over the whole
// document), without the document in memory. A tool call's part carries
// its result, which may come any later: with opt.Reopen the session is read
// twice (its results and first time, then the entries), without it the
// session is held.
func encodeTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	s, rs, next, done, err := encodeInput(r, opt)
	if err != nil {
		return err
	}
	defer done()
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	n := 0
	head := func(d *Doc) error {
		bw.WriteString("{\n  \"info\": ")
		if err := json.Indent(&buf, d.Info, "  ", "  "); err != nil {
			return fmt.Errorf("encode session info: %w", err)
		}
		bw.Write(buf.Bytes())
		buf.Reset()
		_, err := bw.WriteString(",\n  \"messages\": ")
		return err
	}
	d, err := toDocEach(s, rs, next, opt.Options.String(OptProject), func(d *Doc, m *Msg) error {
		if n == 0 {
			if err := head(d); err != nil {
				return err
			}
			bw.WriteString("[\n    ")
		} else {
			bw.WriteString(",\n    ")
		}
		n++
		if err := json.Indent(&buf, m.encode(), "    ", "  "); err != nil {
			return fmt.Errorf("encode message %d: %w", n, err)
		}
		_, err := bw.Write(buf.Bytes())
		buf.Reset()
		return err
	})
	if err != nil {
		return err
	}
	if n == 0 {
		if err := head(d); err != nil {
			return err
		}
		bw.WriteString("[]\n}\n")
	} else {
		bw.WriteString("\n  ]\n}\n")
	}
	return bw.Flush()
}

// encodeInput opens what encodeTo encodes: the session's Meta, its
// results, and its entries (done closes what it opened).
func encodeInput(r session.Reader, opt format.WriteOptions) (*session.Session, *resultScan, func() (*session.Entry, error), func(), error) {
	if opt.Reopen == nil {
		s, err := session.ReadAll(r)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		i := 0
		next := func() (*session.Entry, error) {
			if i == len(s.Entries) {
				return nil, io.EOF
			}
			i++
			return s.Entries[i-1], nil
		}
		rs, _ := scanResults(&s.Meta, next)
		i = 0
		return &session.Session{Meta: s.Meta}, rs, next, func() {}, nil
	}
	// The results and the first time come first, from a reading of the
	// same entries the writing pass gets (the adaptation's, not made again).
	first, err := format.ReadAgain(r, opt.Reopen)
	if err != nil {
		r.Close()
		return nil, nil, nil, nil, err
	}
	meta := *first.Meta()
	rs, err := scanResults(&meta, first.Next)
	first.Close()
	if err != nil {
		r.Close()
		return nil, nil, nil, nil, err
	}
	return &session.Session{Meta: *r.Meta()}, rs, r.Next, func() { r.Close() }, nil
}

func (Export) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	return encodeTo(w, r, opt)
}

func (Export) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	lf := &lazyFile{path: out, force: opt.Force}
	if err := encodeTo(lf, r, opt); err != nil {
		lf.abort()
		return nil, err
	}
	if err := lf.commit(); err != nil {
		return nil, err
	}
	return []string{out}, nil
}

// lazyFile creates its staged file at the first write: a session the
// writer refuses leaves nothing, and is refused before an existing output
// is, as when the document was encoded before the file was created.
type lazyFile struct {
	path  string
	force bool
	f     *atomicfile.File
}

func (l *lazyFile) Write(p []byte) (int, error) {
	if l.f == nil {
		f, err := atomicfile.Create(l.path, 0o644, l.force)
		if err != nil {
			return 0, err
		}
		l.f = f
	}
	n, err := l.f.Write(p)
	if err != nil {
		return n, fmt.Errorf("write %s: %w", l.path, err)
	}
	return n, nil
}

func (l *lazyFile) abort() {
	if l.f != nil {
		l.f.Abort()
	}
}

func (l *lazyFile) commit() error {
	if l.f == nil {
		if _, err := l.Write(nil); err != nil {
			return err
		}
	}
	return l.f.Commit()
}
