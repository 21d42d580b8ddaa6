package codex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/internal/sqlschema"
	"github.com/sesstool/sesstool/internal/walcopy"
	"modernc.org/sqlite" // pure Go SQLite: no cgo
	sqlite3 "modernc.org/sqlite/lib"
)

// stateBounds says, from the size of a state database's files, how long
// reading a thread's name may take (ten seconds, and a second more per
// MiB: it is one lookup by primary key) and how long one value may be (no
// stored value is longer than the files; SQLite refuses a longer one,
// computed or from a corrupt record, with "string or blob too big").
var stateBounds = func(size int64) (time.Duration, int64) {
	return 10*time.Second + time.Duration(size>>20)*time.Second, min(size+1<<20, 1<<30)
}

// stateError is a state database sesstool will not read, or could not: a
// hostile or corrupt file. Validate reports it (rule state-db); the
// reader refuses the rollout with it rather than guess its name.
type stateError struct {
	path string
	msg  string
}

func (e *stateError) Error() string {
	return fmt.Sprintf("%s: %s (Codex's state database, read for the thread's name; move it aside to read the rollouts without it)", e.path, e.msg)
}

// refused is a stateError with its exit code: invalid input (1) for a
// hostile or corrupt database, an I/O failure (3) for a read that ran out
// of time.
func refused(code int, path, msg string) error {
	return &exitcode.Error{Code: code, Err: &stateError{path, msg}}
}

// stateTitle is the thread's name in the home's state database (Codex's
// SQLite index of threads, which it consults before session_index.jsonl:
// state_<N>.sqlite in 0.169, state.db before), or "" when there is no
// database, or it has no threads table with the columns read (another
// Codex version's), or it names no thread id. Codex 0.169 keeps a rename
// in the title column, which otherwise holds the first user message: a
// title that differs from first_user_message is a name (a name column,
// which 0.169 declares and leaves empty, is read first when set).
//
// The database is data, never code: the threads table must be a plain
// table with no computed column (a view can recurse without end, a
// computed column make gigabytes of a small file), only its id, title,
// first_user_message and name columns are read, one row by id, under a
// time limit and a length limit (stateBounds). A database that breaks
// these, or that SQLite finds corrupt, is a *stateError naming it. It is
// opened read-only and immutable: SQLite creates no journal or lock file
// beside it, and a database Codex is writing is never touched. One with a
// write-ahead log beside it (a running Codex keeps its newest rows there)
// is read from a private copy of both (internal/walcopy).
func stateTitle(home, id string) (string, error) {
	dir := home
	if d := os.Getenv("CODEX_SQLITE_HOME"); d != "" {
		dir = d
	}
	path := stateDB(dir)
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "", nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	src, err := walcopy.Of(abs, "codex", filepath.Base(abs))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	limit, length := stateBounds(src.Size)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	fail := func(err error) error {
		var se *stateError
		switch {
		case errors.As(err, &se):
			return err
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			return refused(exitcode.IO, path, fmt.Sprintf("gave up after %v (a query that does not end: a corrupt or hostile database?)", limit))
		}
		return refused(exitcode.Invalid, path, "unreadable: "+err.Error())
	}
	db, err := sql.Open("sqlite", src.URI("_pragma=query_only(1)&_pragma=trusted_schema(0)"))
	if err != nil {
		return "", fail(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", fail(err)
	}
	defer conn.Close()
	if _, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, int(length)); err != nil {
		return "", fail(err)
	}
	cols, err := threadsColumns(ctx, conn, path)
	if err != nil || cols == nil {
		if err != nil {
			err = fail(err)
		}
		return "", err
	}
	name := "''"
	if cols["name"] {
		name = "coalesce(name, '')"
	}
	var title, first, named string
	err = conn.QueryRowContext(ctx, `SELECT coalesce(title, ''), coalesce(first_user_message, ''), `+name+` FROM threads WHERE id = ?`, id).Scan(&title, &first, &named)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", nil
	case err != nil:
		return "", fail(err)
	case named != "":
		return named, nil
	case title != first:
		return title, nil
	}
	return "", nil
}

// threadsColumns checks the threads table before any row is read: it must
// be a plain table, none of its columns computed. It returns the table's
// columns, or nil when there is no such table or it lacks a column read
// (a database of another Codex version, or of another program: no name).
func threadsColumns(ctx context.Context, conn *sql.Conn, path string) (map[string]bool, error) {
	kind, err := sqlschema.Kind(ctx, conn, "threads")
	switch {
	case err != nil:
		return nil, err
	case kind == "":
		return nil, nil
	case kind != "table":
		return nil, refused(exitcode.Invalid, path, sqlschema.NotTable("threads", kind))
	}
	cols, err := sqlschema.Columns(ctx, conn, "threads")
	var computed *sqlschema.ComputedError
	if errors.As(err, &computed) {
		return nil, refused(exitcode.Invalid, path, computed.Error())
	}
	if err != nil {
		return nil, err
	}
	for _, c := range []string{"id", "title", "first_user_message"} {
		if !cols[c] {
			return nil, nil
		}
	}
	return cols, nil
}

// stateDB is the newest state database in dir: the state_<N>.sqlite with
// the highest N, else state.db.
func stateDB(dir string) string {
	best, bestN := filepath.Join(dir, StateDB), -1
	m, _ := filepath.Glob(filepath.Join(dir, "state_*.sqlite"))
	for _, p := range m {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "state_"), ".sqlite"))
		if err == nil && n > bestN {
			best, bestN = p, n
		}
	}
	return best
}
