package opencode

import (
	"errors"
	"fmt"
	"github.com/sesstool/sesstool/format"

	"github.com/sesstool/sesstool/internal/sqlschema"
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
	// A 2.x database keeps sessions in tables a 1.x reader does not know,
	// beside the 1.x tables it no longer updates: read as 1.x it would
	// show stale or doubled sessions without a word, so it is refused
	// until 2.x can be read from a real database.
	if v2, err := s.isV2(s.ctx); err != nil {
		return err
	} else if v2 {
		u := &format.Unsupported{What: "OpenCode 2.x database"}
		return &schemaError{msg: u.Error(), err: u}
	}
	for _, t := range dbTables {
		kind, err := sqlschema.Kind(s.ctx, s.conn, t.name)
		switch {
		case err != nil:
			return err
		case kind == "" && t.optional:
			continue
		case kind == "":
			return &schemaError{msg: fmt.Sprintf("no %s table", t.name)}
		case kind != "table":
			return &schemaError{msg: sqlschema.NotTable(t.name, kind)}
		}
		cols, err := sqlschema.Columns(s.ctx, s.conn, t.name)
		var computed *sqlschema.ComputedError
		if errors.As(err, &computed) {
			return &schemaError{msg: computed.Error()}
		}
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
			return &schemaError{msg: fmt.Sprintf("table %s has no %s column", t.name, missing)}
		}
		s.tables[t.name] = true
		if t.name == "session" {
			s.cols = cols
		}
	}
	return nil
}
