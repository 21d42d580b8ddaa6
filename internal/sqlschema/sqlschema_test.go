package sqlschema

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	_ "modernc.org/sqlite"
)

func conn(t *testing.T, ddl ...string) *sql.Conn {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	for _, q := range ddl {
		if _, err := c.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return c
}

func TestKind(t *testing.T) {
	c := conn(t,
		`CREATE TABLE plain (id TEXT)`,
		`CREATE VIEW v AS SELECT id FROM plain`,
		`CREATE VIRTUAL TABLE fts USING fts5(body)`,
		`CREATE INDEX ix ON plain(id)`,
	)
	for name, want := range map[string]string{"plain": "table", "v": "view", "fts": "virtual table", "ix": "index", "absent": ""} {
		got, err := Kind(context.Background(), c, name)
		if err != nil || got != want {
			t.Errorf("Kind(%s) = %q, %v; want %q", name, got, err, want)
		}
	}
}

func TestColumns(t *testing.T) {
	c := conn(t,
		`CREATE TABLE plain (id TEXT, data TEXT)`,
		`CREATE TABLE virt (id TEXT, big TEXT GENERATED ALWAYS AS (printf('%.*c', 1000000000, 'x')) VIRTUAL)`,
		`CREATE TABLE stored (id TEXT, n INTEGER GENERATED ALWAYS AS (length(id)) STORED)`,
	)
	got, err := Columns(context.Background(), c, "plain")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]bool{"id": true, "data": true}, got); d != "" {
		t.Errorf("plain columns (-want +got):\n%s", d)
	}
	for table, col := range map[string]string{"virt": "big", "stored": "n"} {
		_, err := Columns(context.Background(), c, table)
		var e *ComputedError
		if !errors.As(err, &e) || e.Table != table || e.Column != col {
			t.Errorf("Columns(%s) error = %v, want column %s.%s computed", table, err, table, col)
		}
	}
}
