package codex

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

var _ format.Indexer = Format{}

// indexLockWait is how long Index waits for a running Codex to finish its
// own write of the index (one line, under the same lock).
var indexLockWait = 10 * time.Second

// Index records the titles of the sessions convert has written into the
// Codex home: for each one with a title, the line Codex 0.169 appends to
// session_index.jsonl when a thread is renamed,
// {"id","thread_name","updated_at"}, unless the index already names the
// thread so (its last line for the id wins, as in Codex). The index is
// replaced whole (atomicfile): its other lines stay byte for byte, and
// nothing is written when there is no line to add. Codex's own lock
// (flock on session_index.jsonl.lock) is held meanwhile, so a rename a
// running Codex makes is neither lost nor interleaved.
func (Format) Index(home string, metas []*session.Meta) error {
	want := map[string]string{} // thread id -> title, the last session's
	var order []string
	for _, m := range metas {
		if m.Title == "" {
			continue
		}
		id := SessionID(m)
		if _, ok := want[id]; !ok {
			order = append(order, id)
		}
		want[id] = m.Title
	}
	if len(order) == 0 {
		return nil
	}
	path := filepath.Join(home, IndexFile)
	unlock, err := lockIndex(path)
	if err != nil {
		return err
	}
	defer unlock()
	old, err := os.Open(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	var known map[string]indexEntry
	if old != nil {
		defer old.Close()
		if known, err = indexNames(old, want); err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
	}
	var add []byte
	for _, m := range metas {
		id := SessionID(m)
		title, ok := want[id]
		if !ok || known[id].name == title {
			continue
		}
		if known == nil {
			known = map[string]indexEntry{}
		}
		known[id] = indexEntry{name: title}
		add = append(indexLine(add, m, id, title), '\n')
	}
	if len(add) == 0 {
		return nil
	}
	return rewriteIndex(path, old, add)
}

// rewriteIndex writes the old index's bytes, then add, to a new file that
// replaces it. A last line without its newline gets one, so the first
// added line is a line of its own.
func rewriteIndex(path string, old *os.File, add []byte) error {
	f, err := atomicfile.Create(path, 0o644, true)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	if old != nil {
		if _, err := old.Seek(0, io.SeekStart); err != nil {
			f.Abort()
			return fmt.Errorf("read %s: %w", path, err)
		}
		n, err := io.Copy(w, old)
		if err != nil {
			f.Abort()
			return fmt.Errorf("rewrite %s: %w", path, err)
		}
		if n > 0 && !endsInNewline(old, n) {
			w.WriteByte('\n')
		}
	}
	w.Write(add)
	if err := w.Flush(); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

func endsInNewline(f *os.File, size int64) bool {
	b := make([]byte, 1)
	_, err := f.ReadAt(b, size-1)
	return err == nil && b[0] == '\n'
}

// indexLine is the index line for session m, thread id, named name: the
// line its title was read from when it came from a Codex home and neither
// changed, else one as Codex writes it (serde_json: members in this
// order, no spaces, non-ASCII as it is).
func indexLine(dst []byte, m *session.Meta, id, name string) []byte {
	if n, ok := m.Private.(*metaNote); ok && m.Origin == Name && len(n.index) > 0 {
		v := gjson.ParseBytes(n.index)
		if v.Get("id").String() == id && v.Get("thread_name").String() == name {
			return append(dst, n.index...)
		}
	}
	t := indexTime(m)
	dst = append(dst, `{"id":`...)
	dst = jsonx.AppendString(dst, id)
	dst = append(dst, `,"thread_name":`...)
	dst = jsonx.AppendString(dst, name)
	dst = append(dst, `,"updated_at":"`...)
	dst = append(dst, chronoTime(t)...)
	return append(dst, `"}`...)
}

// indexTime is when the session was last updated, else when it started
// (Codex writes the time of the rename; a conversion has none, and the
// session's own time keeps the output the same on every run). Codex
// picks the last line for a thread, whatever its time.
func indexTime(m *session.Meta) time.Time {
	switch {
	case !m.Updated.T.IsZero():
		return m.Updated.T
	case !m.Created.T.IsZero():
		return m.Created.T
	}
	return time.Unix(0, 0)
}

// chronoTime spells t as chrono's serde does for a DateTime<Utc>: RFC
// 3339 in UTC with Z, and no fraction, or 3, 6 or 9 digits of it.
func chronoTime(t time.Time) string {
	t = t.UTC()
	ns := t.Nanosecond()
	switch {
	case ns == 0:
		return t.Format("2006-01-02T15:04:05Z")
	case ns%1e6 == 0:
		return t.Format("2006-01-02T15:04:05.000Z")
	case ns%1e3 == 0:
		return t.Format("2006-01-02T15:04:05.000000Z")
	}
	return t.Format("2006-01-02T15:04:05.000000000Z")
}

// lockIndex takes Codex's lock on the index: an exclusive flock on
// session_index.jsonl.lock, waited for up to indexLockWait.
func lockIndex(path string) (func(), error) {
	lf, err := atomicfile.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	deadline := time.Now().Add(indexLockWait)
	for {
		err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { lf.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			lf.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("write %s: %w", path, atomicfile.ErrBusy)
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
