package opencode

import (
	"fmt"
	"strings"
)

// dbTables are the tables sesstool reads and the columns it needs of each.
// Nothing else of a database is ever queried. The optional ones may be
// absent (or, from an older schema, lack a column): then they are not read.
var dbTables = []struct {
	name     string
	cols     []string
	optional bool
}{
	{"session", []string{"id", "project_id", "parent_id"}, false},
	{"message", []string{"id", "session_id", "data"}, false},
	{"part", []string{"id", "message_id", "session_id", "data"}, false},
	{"project", []string{"id", "worktree", "vcs", "name", "time_created", "time_updated", "sandboxes"}, true},
	{"todo", []string{"session_id", "content", "status", "priority", "position"}, true},
}

// checkSchema reads sqlite_master and each table's columns before any row:
// each table read must be a plain table (a view can compute without end,
// a virtual table runs a module), and no column of it may be computed
// (GENERATED): OpenCode declares neither, and a computed column can make
// any amount of data out of a small file.
func (s *dbStore) checkSchema() error {
	kinds := map[string]string{}
	rows, err := s.query(`SELECT type, name, coalesce(sql, '') FROM sqlite_master WHERE name IN ('session', 'message', 'part', 'project', 'todo')`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var typ, name, def string
		if err := rows.Scan(&typ, &name, &def); err != nil {
			rows.Close()
			return err
		}
		if typ == "table" && !isPlainTable(def) {
			typ = "virtual table"
		}
		kinds[name] = typ
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range dbTables {
		kind, ok := kinds[t.name]
		switch {
		case !ok && t.optional:
			continue
		case !ok:
			return &schemaError{fmt.Sprintf("no %s table", t.name)}
		case kind != "table":
			return &schemaError{fmt.Sprintf("%s is a %s, not a table: sesstool reads only plain tables", t.name, kind)}
		}
		cols, err := s.columns(t.name)
		if err != nil {
			return err
		}
		missing := ""
		for _, c := range t.cols {
			if !cols[c] {
				missing = c
				break
			}
		}
		switch {
		case missing != "" && t.optional:
			continue
		case missing != "":
			return &schemaError{fmt.Sprintf("table %s has no %s column", t.name, missing)}
		}
		s.tables[t.name] = true
		if t.name == "session" {
			s.cols = cols
		}
	}
	return nil
}

// columns lists a table's columns, refusing a computed one.
func (s *dbStore) columns(table string) (map[string]bool, error) {
	rows, err := s.query(`SELECT name, hidden FROM pragma_table_xinfo(?)`, table)
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
		if hidden == 2 || hidden == 3 {
			return nil, &schemaError{fmt.Sprintf("column %s.%s is computed (GENERATED ALWAYS AS): sesstool reads only stored values", table, name)}
		}
		cols[name] = true
	}
	return cols, rows.Err()
}

// isPlainTable: CREATE TABLE, not CREATE VIRTUAL TABLE.
func isPlainTable(def string) bool {
	f := strings.Fields(strings.ToUpper(def))
	return len(f) >= 2 && f[0] == "CREATE" && f[1] == "TABLE"
}
