package opencode

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sesstool/sesstool/internal/cleanup"
)

// A database copied while OpenCode runs keeps its newest rows in the
// write-ahead log beside it (opencode.db-wal). Opened immutable, SQLite
// ignores that log; opened any other way, it creates -shm (and may
// checkpoint) next to the input. So a database with a log is read from a
// private copy of both files, made once per run and removed at its end
// (also on SIGINT, SIGTERM, SIGHUP or SIGPIPE, through internal/cleanup). A database
// without one is opened in place, immutable: no copy.

// dbSource says what to open for the database at path (absolute): the file
// itself (immutable), or a private copy of it and its log. size is what
// the files hold, the bound for any one value read from them.
type dbSource struct {
	file      string
	immutable bool
	size      int64
}

// walCopy is one private copy, shared by every open of the same database
// in the same state during a run.
type walCopy struct {
	dir, file string
}

type walKey struct {
	path            string
	dbSize, walSize int64
	dbTime, walTime time.Time
}

var (
	walMu     sync.Mutex
	walCopies = map[walKey]*walCopy{}
)

func sourceOf(abs string) (dbSource, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return dbSource{}, err
	}
	wi, err := os.Stat(abs + "-wal")
	if err != nil || !wi.Mode().IsRegular() || wi.Size() == 0 {
		return dbSource{file: abs, immutable: true, size: fi.Size()}, nil
	}
	k := walKey{abs, fi.Size(), wi.Size(), fi.ModTime(), wi.ModTime()}
	walMu.Lock()
	defer walMu.Unlock()
	c, ok := walCopies[k]
	if !ok {
		if c, err = copyWithWAL(abs); err != nil {
			return dbSource{}, err
		}
		walCopies[k] = c
		forget := cleanup.Track(c.dir) // a signal removes it
		cleanup.AtExit(func() {        // and so does the end of the run
			walMu.Lock()
			delete(walCopies, k)
			walMu.Unlock()
			os.RemoveAll(c.dir)
			forget()
		})
	}
	return dbSource{file: c.file, size: fi.Size() + wi.Size()}, nil
}

// copyWithWAL copies the database and its log into a new private
// directory. The -shm index is not copied: SQLite rebuilds it from the log.
func copyWithWAL(abs string) (*walCopy, error) {
	dir, err := os.MkdirTemp("", "sesstool-opencode-*")
	if err != nil {
		return nil, fmt.Errorf("copy %s with its write-ahead log: %w", abs, err)
	}
	c := &walCopy{dir: dir, file: filepath.Join(dir, "opencode.db")}
	for _, suffix := range []string{"", "-wal"} {
		if err := copyFile(abs+suffix, c.file+suffix); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("copy %s with its write-ahead log: %w", abs, err)
		}
	}
	return c, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
