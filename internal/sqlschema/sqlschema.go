// Package sqlschema checks a SQLite table before any of its rows is read.
// A database sesstool reads may come from anyone: a view can compute
// without end, a virtual table runs a module, and a computed (GENERATED)
// column can make gigabytes out of a small file. The agents whose
// databases sesstool reads declare none of these, so each is refused.
package sqlschema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Kind is what sqlite_master says name is ("table", "view", "index",
// "trigger"), with a table created by CREATE VIRTUAL TABLE called
// "virtual table", or "" when there is no such name.
func Kind(ctx context.Context, conn *sql.Conn, name string) (string, error) {
	var typ, def string
	err := conn.QueryRowContext(ctx, `SELECT type, coalesce(sql, '') FROM sqlite_master WHERE name = ?`, name).Scan(&typ, &def)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if typ == "table" && !plainTable(def) {
		typ = "virtual table"
	}
	return typ, nil
}

// NotTable words the refusal of a name whose kind is not "table".
func NotTable(name, kind string) string {
	return fmt.Sprintf("%s is a %s, not a table: sesstool reads only plain tables", name, kind)
}

// ComputedError is a table's computed column.
type ComputedError struct{ Table, Column string }

func (e *ComputedError) Error() string {
	return fmt.Sprintf("column %s.%s is computed (GENERATED ALWAYS AS): sesstool reads only stored values", e.Table, e.Column)
}

// Columns lists a table's columns, refusing a computed one with a
// *ComputedError.
func Columns(ctx context.Context, conn *sql.Conn, table string) (map[string]bool, error) {
	rows, err := conn.QueryContext(ctx, `SELECT name, hidden FROM pragma_table_xinfo(?)`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := map[string]bool{}
	for rows.Next() {
		var name string
		var hidden int
		if err := rows.Scan(&name, &hidden); err != nil {
			return nil, err
		}
		// 2 and 3 are SQLite's marks for a virtual and a stored
		// generated column.
		if hidden == 2 || hidden == 3 {
			return nil, &ComputedError{Table: table, Column: name}
		}
		cols[name] = true
	}
	return cols, rows.Err()
}

// plainTable: CREATE TABLE, not CREATE VIRTUAL TABLE.
func plainTable(def string) bool {
	f := strings.Fields(strings.ToUpper(def))
	return len(f) >= 2 && f[0] == "CREATE" && f[1] == "TABLE"
}
