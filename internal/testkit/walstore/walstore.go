// Package walstore builds, for tests, OpenCode databases whose newest rows
// sit in the write-ahead log beside them: what a data directory copied
// while OpenCode runs holds.
package walstore

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite" // pure-Go SQLite driver
)

// Build writes dir/opencode.db and dir/opencode.db-wal holding every row of
// the database src. With inMain < 0 even the schema is only in the log (the
// main file has its header page and nothing else); else the first inMain
// messages (by time, then id) and every other table's rows are
// checkpointed into the main file and the remaining messages with their
// parts are only in the log. The files are copied while the connection that
// wrote them still holds them, so the log is not checkpointed away.
func Build(t testing.TB, src, dir string, inMain int) {
	t.Helper()
	work := t.TempDir()
	u := url.URL{Scheme: "file", Path: filepath.Join(work, "opencode.db")}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Every statement is run as a query and read to its end, so none is
	// left active (a PRAGMA answers rows) to block the checkpoints.
	exec := func(q string, args ...any) {
		t.Helper()
		rows, err := c.QueryContext(ctx, q, args...)
		if err == nil {
			for rows.Next() {
			}
			rows.Close()
			err = rows.Err()
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// wal_checkpoint answers a row: read it, so its statement is done.
	checkpoint := func() {
		t.Helper()
		var busy, log, done int
		if err := c.QueryRowContext(ctx, `PRAGMA main.wal_checkpoint(TRUNCATE)`).Scan(&busy, &log, &done); err != nil || busy != 0 {
			t.Fatalf("checkpoint: %v (busy %d)", err, busy)
		}
	}
	exec(`PRAGMA journal_mode=WAL`)
	exec(`PRAGMA wal_autocheckpoint=0`)
	exec(`ATTACH DATABASE ? AS src`, (&url.URL{Scheme: "file", Path: mustAbs(t, src), RawQuery: "mode=ro&immutable=1"}).String())
	rows, err := c.QueryContext(ctx, `SELECT name, sql FROM src.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type DESC`)
	if err != nil {
		t.Fatal(err)
	}
	var tables, defs []string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			t.Fatal(err)
		}
		defs = append(defs, def)
		if len(def) > 12 && def[:12] == "CREATE TABLE" {
			tables = append(tables, name)
		}
	}
	rows.Close()
	if inMain >= 0 {
		checkpoint() // the header page only, so far
	}
	for _, d := range defs {
		exec(d)
	}
	late := `SELECT id FROM src.message ORDER BY time_created, id LIMIT -1 OFFSET ?`
	for _, tb := range tables {
		q := fmt.Sprintf(`INSERT INTO main.%q SELECT * FROM src.%q`, tb, tb)
		switch {
		case inMain < 0:
			exec(q)
			continue
		case tb == "message":
			q += ` WHERE id NOT IN (` + late + `)`
		case tb == "part":
			q += ` WHERE message_id NOT IN (` + late + `)`
		default:
			exec(q)
			continue
		}
		exec(q, inMain)
	}
	if inMain >= 0 {
		checkpoint()
		exec(`INSERT INTO main.message SELECT * FROM src.message WHERE id IN (`+late+`)`, inMain)
		exec(`INSERT INTO main.part SELECT * FROM src.part WHERE message_id IN (`+late+`)`, inMain)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal"} {
		copyFile(t, filepath.Join(work, "opencode.db"+suffix), filepath.Join(dir, "opencode.db"+suffix))
	}
}

func mustAbs(t testing.TB, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
