package codex

import (
	"database/sql"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // pure Go SQLite: no cgo
)

// stateTitle is the thread's title in the home's state.db (Codex's SQLite
// index of threads, which it consults before the files), or "" when there
// is no database, no such table or no title. The database is opened
// read-only and immutable: SQLite creates no journal or lock file beside
// it, and a database Codex is writing is never touched.
func stateTitle(home, id string) string {
	path := filepath.Join(home, StateDB)
	if os.Getenv("CODEX_SQLITE_HOME") != "" {
		path = filepath.Join(os.Getenv("CODEX_SQLITE_HOME"), StateDB)
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro&immutable=1"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return ""
	}
	defer db.Close()
	var title sql.NullString
	if err := db.QueryRow(`SELECT title FROM threads WHERE id = ?`, id).Scan(&title); err != nil {
		return ""
	}
	return title.String
}
