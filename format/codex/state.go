package codex

import (
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sesstool/sesstool/internal/walcopy"
	_ "modernc.org/sqlite" // pure Go SQLite: no cgo
)

// stateTitle is the thread's name in the home's state database (Codex's
// SQLite index of threads, which it consults before the files:
// state_<N>.sqlite in 0.169, state.db before), or "" when there is no
// database, no threads table with a name column, or no name. Its title
// column is only the first user message, so it is not read. The database is opened
// read-only and immutable: SQLite creates no journal or lock file beside
// it, and a database Codex is writing is never touched. One with a
// write-ahead log beside it (a running Codex keeps its newest rows there)
// is read from a private copy of both (internal/walcopy).
func stateTitle(home, id string) string {
	dir := home
	if d := os.Getenv("CODEX_SQLITE_HOME"); d != "" {
		dir = d
	}
	path := stateDB(dir)
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	src, err := walcopy.Of(abs, "codex", filepath.Base(abs))
	if err != nil {
		return ""
	}
	db, err := sql.Open("sqlite", src.URI("_pragma=query_only(1)&_pragma=trusted_schema(0)"))
	if err != nil {
		return ""
	}
	defer db.Close()
	var title sql.NullString
	if err := db.QueryRow(`SELECT name FROM threads WHERE id = ?`, id).Scan(&title); err != nil {
		return ""
	}
	return title.String
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
