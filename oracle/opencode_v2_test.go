package oracle

import (
	"database/sql"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// makeV2DB builds what OpenCode 2.0 leaves in opencode.db: the 1.x tables
// with a session, and the session_v2 and session_message tables it copies
// the sessions into under the same ids. With old false, only the 2.x
// tables (a database 2.x made).
func makeV2DB(t *testing.T, old bool) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "opencode.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := []string{
		`CREATE TABLE session_v2 (id TEXT PRIMARY KEY, data TEXT NOT NULL)`,
		`CREATE TABLE session_message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, data TEXT NOT NULL)`,
		`INSERT INTO session_v2 VALUES ('ses_0a1b2c3d4e5fAbCdEfGhIjKlMn', '{}')`,
		`INSERT INTO session_message VALUES ('msg_0a1b2c3d4e5fAbCdEfGhIjKlMn', 'ses_0a1b2c3d4e5fAbCdEfGhIjKlMn', '{}')`,
	}
	if old {
		stmts = append(stmts,
			`CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT, summary_additions INTEGER, summary_deletions INTEGER, summary_files INTEGER, summary_diffs TEXT, revert TEXT, permission TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_compacting INTEGER, time_archived INTEGER)`,
			`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)`,
			`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)`,
			`INSERT INTO session VALUES ('ses_0a1b2c3d4e5fAbCdEfGhIjKlMn', 'global', NULL, 'calm-owl', '/tmp', 'Stale', '1.18.33', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1767225600000, 1767225600000, NULL, NULL)`,
		)
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

// An OpenCode 2.x database is detected by its tables and refused, with one
// finding naming it, exit 1, by every command that reads sessions, rather
// than read as 1.x (its 1.x tables are stale copies 2.x no longer
// updates): no session of it is shown or written. (migrate has nothing to
// do for any OpenCode store.)
func TestOpenCodeV2Refused(t *testing.T) {
	for _, old := range []bool{true, false} {
		db := makeV2DB(t, old)
		for _, args := range [][]string{
			{"detect"},
			{"validate"},
			{"info"},
			{"convert", "--to", "tree", "-o", filepath.Join(t.TempDir(), "out")},
			{"export", "markdown", "-o", filepath.Join(t.TempDir(), "out.md")},
		} {
			for _, path := range []string{db, filepath.Dir(db)} {
				stdout, stderr, code := run(t, append(args, path)...)
				all := stdout + stderr
				finding := regexp.MustCompile(`(?m)^.*` + regexp.QuoteMeta(db) + `(:0: error)?: OpenCode 2\.x database: not supported yet( \(db-schema\))?$`)
				if code != 1 || len(finding.FindAllString(all, -1)) != 1 || strings.Contains(all, "ses_") || strings.Contains(all, "Stale") {
					t.Errorf("with 1.x tables %v: sesstool %v %s: exit %d, output\n%s\nwant exit 1, one finding naming %s, no session", old, args, path, code, all, db)
				}
			}
		}
	}
}
