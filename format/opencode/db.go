package opencode

import (
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/sesstool/sesstool/jsonx"
	_ "modernc.org/sqlite" // pure-Go SQLite driver
)

// dbStore reads an opencode.db (1.2 and 1.18 schemas) without changing it:
// it is opened read-only and immutable, so SQLite neither writes nor takes
// locks, and a WAL beside it is left alone.
type dbStore struct {
	path string
	db   *sql.DB
	cols map[string]bool // session table columns (they grew in 1.18)
}

func isOpenCodeDB(path string) bool {
	s, err := openDB(path)
	if err != nil {
		return false
	}
	s.Close()
	return true
}

func openDB(path string) (*dbStore, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro&immutable=1"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s := &dbStore{path: path, db: db, cols: map[string]bool{}}
	for _, t := range []string{"session", "message", "part"} {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?`, t).Scan(&n); err != nil || n == 0 {
			db.Close()
			return nil, fmt.Errorf("%s: not an OpenCode database (no %s table)", path, t)
		}
	}
	rows, err := db.Query(`SELECT name FROM pragma_table_info('session')`)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err == nil {
			s.cols[c] = true
		}
	}
	return s, rows.Err()
}

func (s *dbStore) Close() error { return s.db.Close() }

func (s *dbStore) list() ([]sessionRef, error) {
	rows, err := s.db.Query(`SELECT id, project_id, coalesce(parent_id, '') FROM session ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.path, err)
	}
	defer rows.Close()
	var out []sessionRef
	for rows.Next() {
		var r sessionRef
		if err := rows.Scan(&r.ID, &r.ProjectID, &r.ParentID); err != nil {
			return nil, fmt.Errorf("read %s: %w", s.path, err)
		}
		r.File = s.path
		out = append(out, r)
	}
	return out, rows.Err()
}

// sessionColumns lists, in the order OpenCode's fromRow spells Session.Info,
// the columns and the member each becomes.
var sessionColumns = []string{"id", "slug", "project_id", "workspace_id", "directory", "path", "parent_id", "title",
	"agent", "model", "version", "summary_additions", "summary_deletions", "summary_files", "summary_diffs", "share_url",
	"cost", "tokens_input", "tokens_output", "tokens_reasoning", "tokens_cache_read", "tokens_cache_write",
	"revert", "permission", "metadata", "time_created", "time_updated", "time_compacting", "time_archived"}

func (s *dbStore) load(ref sessionRef) (*Doc, error) {
	info, err := s.sessionInfo(ref.ID)
	if err != nil {
		return nil, err
	}
	d := &Doc{Info: info, ProjectID: ref.ProjectID}
	if err := s.messages(d, ref.ID); err != nil {
		return nil, err
	}
	if d.Todo, err = s.todos(ref.ID); err != nil {
		return nil, err
	}
	// 1.2 to 1.15 keep session_diff in the JSON tree beside the database.
	if d.Diff, err = optJSON(filepath.Join(filepath.Dir(s.path), "storage", "session_diff", ref.ID+".json")); err != nil {
		return nil, err
	}
	d.Project, err = s.project(ref.ProjectID)
	return d, err
}

func (s *dbStore) sessionInfo(id string) ([]byte, error) {
	var cols []string
	for _, c := range sessionColumns {
		if s.cols[c] {
			cols = append(cols, c)
		}
	}
	q := "SELECT "
	for i, c := range cols {
		if i > 0 {
			q += ", "
		}
		q += c
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := s.db.QueryRow(q+" FROM session WHERE id = ?", id).Scan(ptrs...); err != nil {
		return nil, fmt.Errorf("read %s: session %s: %w", s.path, id, err)
	}
	row := map[string]any{}
	for i, c := range cols {
		row[c] = vals[i]
	}
	return sessionFromRow(row), nil
}

// sessionFromRow rebuilds Session.Info from its columns the way OpenCode's
// fromRow does: absent (NULL) optional columns leave their member out.
func sessionFromRow(r map[string]any) []byte {
	var o jsonx.Obj
	str := func(k, c string) {
		if v, ok := r[c]; ok && v != nil {
			o.Str(k, asString(v))
		}
	}
	rawc := func(k, c string) {
		if v, ok := r[c]; ok && v != nil && asString(v) != "" {
			if b, err := compact([]byte(asString(v))); err == nil {
				o.Raw(k, b)
			}
		}
	}
	str("id", "id")
	str("slug", "slug")
	str("projectID", "project_id")
	str("workspaceID", "workspace_id")
	str("directory", "directory")
	str("path", "path")
	str("parentID", "parent_id")
	str("title", "title")
	str("agent", "agent")
	rawc("model", "model")
	str("version", "version")
	if r["summary_additions"] != nil || r["summary_deletions"] != nil {
		var sm jsonx.Obj
		sm.Int("additions", asInt(r["summary_additions"])).Int("deletions", asInt(r["summary_deletions"])).Int("files", asInt(r["summary_files"]))
		if v := r["summary_diffs"]; v != nil {
			if b, err := compact([]byte(asString(v))); err == nil {
				sm.Raw("diffs", b)
			}
		}
		o.Raw("summary", sm.Bytes())
	}
	if v := r["share_url"]; v != nil {
		var sh jsonx.Obj
		o.Raw("share", sh.Str("url", asString(v)).Bytes())
	}
	if v, ok := r["cost"]; ok && v != nil {
		o.Float("cost", asFloat(v))
		var c, t jsonx.Obj
		c.Int("read", asInt(r["tokens_cache_read"])).Int("write", asInt(r["tokens_cache_write"]))
		t.Int("input", asInt(r["tokens_input"])).Int("output", asInt(r["tokens_output"])).Int("reasoning", asInt(r["tokens_reasoning"])).Raw("cache", c.Bytes())
		o.Raw("tokens", t.Bytes())
	}
	rawc("revert", "revert")
	rawc("permission", "permission")
	rawc("metadata", "metadata")
	var tm jsonx.Obj
	tm.Int("created", asInt(r["time_created"])).Int("updated", asInt(r["time_updated"]))
	if v := r["time_compacting"]; v != nil {
		tm.Int("compacting", asInt(v))
	}
	if v := r["time_archived"]; v != nil {
		tm.Int("archived", asInt(v))
	}
	o.Raw("time", tm.Bytes())
	return o.Bytes()
}

func asString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

func asInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

func asFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

func (s *dbStore) messages(d *Doc, sid string) error {
	rows, err := s.db.Query(`SELECT id, data FROM message WHERE session_id = ?`, sid)
	if err != nil {
		return fmt.Errorf("read %s: %w", s.path, err)
	}
	idx := map[string]int{}
	for rows.Next() {
		var id, data string
		if err := rows.Scan(&id, &data); err != nil {
			rows.Close()
			return fmt.Errorf("read %s: %w", s.path, err)
		}
		info, err := withIDs([]byte(data), "id", id, "sessionID", sid)
		if err != nil {
			rows.Close()
			return fmt.Errorf("read %s: message %s: invalid JSON data", s.path, id)
		}
		idx[id] = len(d.Messages)
		d.Messages = append(d.Messages, Msg{Info: info})
	}
	rows.Close()
	prows, err := s.db.Query(`SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id`, sid)
	if err != nil {
		return fmt.Errorf("read %s: %w", s.path, err)
	}
	defer prows.Close()
	for prows.Next() {
		var id, mid, data string
		if err := prows.Scan(&id, &mid, &data); err != nil {
			return fmt.Errorf("read %s: %w", s.path, err)
		}
		i, ok := idx[mid]
		if !ok {
			continue // an orphan part; validate reports it
		}
		p, err := withIDs([]byte(data), "id", id, "sessionID", sid, "messageID", mid)
		if err != nil {
			return fmt.Errorf("read %s: part %s: invalid JSON data", s.path, id)
		}
		d.Messages[i].Parts = append(d.Messages[i].Parts, p)
	}
	sortMessages(d.Messages)
	return prows.Err()
}

func (s *dbStore) todos(sid string) ([]byte, error) {
	rows, err := s.db.Query(`SELECT content, status, priority FROM todo WHERE session_id = ? ORDER BY position`, sid)
	if err != nil {
		return nil, nil // no todo table: nothing to carry
	}
	defer rows.Close()
	var items [][]byte
	for rows.Next() {
		var c, st, p string
		if err := rows.Scan(&c, &st, &p); err != nil {
			return nil, fmt.Errorf("read %s: %w", s.path, err)
		}
		var o jsonx.Obj
		items = append(items, o.Str("content", c).Str("status", st).Str("priority", p).Bytes())
	}
	if len(items) == 0 {
		return nil, rows.Err()
	}
	return jsonx.Arr(items), rows.Err()
}

func (s *dbStore) project(id string) ([]byte, error) {
	var worktree string
	var vcs, name sql.NullString
	var created, updated int64
	var sandboxes sql.NullString
	err := s.db.QueryRow(`SELECT worktree, vcs, name, time_created, time_updated, sandboxes FROM project WHERE id = ?`, id).
		Scan(&worktree, &vcs, &name, &created, &updated, &sandboxes)
	if err != nil {
		return nil, nil // no such project row: validate reports the orphan
	}
	var o, t jsonx.Obj
	o.Str("id", id).Str("worktree", worktree)
	if vcs.Valid {
		o.Str("vcs", vcs.String)
	}
	if name.Valid {
		o.Str("name", name.String)
	}
	if sb, err := compact([]byte(sandboxes.String)); err == nil && sandboxes.Valid {
		o.Raw("sandboxes", sb)
	}
	o.Raw("time", t.Int("created", created).Int("updated", updated).Bytes())
	return o.Bytes(), nil
}
