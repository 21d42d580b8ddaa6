// Package walcopy says how to open an SQLite database another program
// owns without touching it. A database copied or read while its program
// runs keeps its newest rows in the write-ahead log beside it (<db>-wal).
// Opened immutable, SQLite ignores that log; opened any other way, it
// creates -shm (and may checkpoint) next to the input. So a database with
// a log is read from a private copy of it and of what SQLite would read of
// its log (its valid frames up to the last commit: frames.go), made once
// per run and removed at its end (also on SIGINT, SIGTERM, SIGHUP or
// SIGPIPE, through internal/cleanup). A database without one, or whose log
// holds nothing SQLite would read, is opened in place, immutable: no copy.
package walcopy

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sesstool/sesstool/internal/cleanup"
)

// Source says what to open for a database: the file itself (Immutable),
// or a private copy of it and its log. Size is what the files hold, the
// bound for any one value read from them.
type Source struct {
	File      string
	Immutable bool
	Size      int64
}

// URI is the file: URI that opens s read-only with the query parameters
// q (without mode and immutable, which it adds for an in-place open).
func (s Source) URI(q string) string {
	if s.Immutable {
		if q != "" {
			q = "&" + q
		}
		q = "mode=ro&immutable=1" + q
	}
	return (&url.URL{Scheme: "file", Path: s.File, RawQuery: q}).String()
}

// copy is one private copy, shared by every open of the same database in
// the same state during a run.
type copy struct {
	dir, file string
	size      int64 // what was copied of the database and its log
}

type key struct {
	path            string
	dbSize, walSize int64
	dbTime, walTime time.Time
}

var (
	mu     sync.Mutex
	copies = map[key]*copy{}
)

// Of says what to open for the database at abs (an absolute path). A copy
// is made in a new directory sesstool-<owner>-* under the temporary
// directory, the database named name in it.
func Of(abs, owner, name string) (Source, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return Source{}, err
	}
	wi, err := os.Stat(abs + "-wal")
	if err != nil || !wi.Mode().IsRegular() || wi.Size() == 0 {
		return Source{File: abs, Immutable: true, Size: fi.Size()}, nil
	}
	k := key{abs, fi.Size(), wi.Size(), fi.ModTime(), wi.ModTime()}
	mu.Lock()
	defer mu.Unlock()
	c, ok := copies[k]
	if !ok {
		if c, err = copyWithWAL(abs, owner, name); err != nil {
			return Source{}, err
		}
		if c == nil {
			// Nothing of the log would be read: the file alone is the
			// database, opened in place.
			return Source{File: abs, Immutable: true, Size: fi.Size()}, nil
		}
		copies[k] = c
		forget := cleanup.Track(c.dir) // a signal removes it
		cleanup.AtExit(func() {        // and so does the end of the run
			mu.Lock()
			delete(copies, k)
			mu.Unlock()
			os.RemoveAll(c.dir)
			forget()
		})
	}
	// Size bounds a value read, and the time a read may take: what was
	// copied, not what the log's size says (a sparse log says anything).
	return Source{File: c.file, Size: c.size}, nil
}

// copyWithWAL copies the database and what SQLite would read of its log
// (frames.go) into a new private directory, or returns nil when it would
// read nothing of the log. The -shm index is not copied: SQLite rebuilds
// it from the log.
func copyWithWAL(abs, owner, name string) (*copy, error) {
	dir, err := os.MkdirTemp("", "sesstool-"+owner+"-*")
	if err != nil {
		return nil, fmt.Errorf("copy %s with its write-ahead log: %w", abs, err)
	}
	c := &copy{dir: dir, file: filepath.Join(dir, name)}
	walSize, err := copyLog(abs+"-wal", c.file+"-wal")
	if err == nil && walSize == 0 {
		os.RemoveAll(dir)
		return nil, nil
	}
	var dbSize int64
	if err == nil {
		dbSize, err = copyFile(abs, c.file)
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("copy %s with its write-ahead log: %w", abs, err)
	}
	c.size = dbSize + walSize
	return c, nil
}

// copyLog copies the log's frames SQLite would read, and returns their
// length with the header's.
func copyLog(from, to string) (int64, error) {
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, err
	}
	n, err := copyWAL(from, out)
	if err == nil {
		err = out.Truncate(n) // frames after the last commit are not read
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}

func copyFile(from, to string) (int64, error) {
	in, err := os.Open(from)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, in)
	if err != nil {
		out.Close()
		return 0, err
	}
	return n, out.Close()
}
