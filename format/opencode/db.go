package opencode

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/jsonx"
	"modernc.org/sqlite" // pure-Go SQLite driver
	sqlite3 "modernc.org/sqlite/lib"
)

// dbStore reads an opencode.db (1.2 and 1.18 schemas) without changing it:
// it is opened read-only and immutable, so SQLite neither writes nor takes
// locks; a database with a write-ahead log is read from a private copy of
// both (dbcopy.go). A database is data, never code to run: the tables read
// must be plain tables with no computed columns (schema.go), every value
// is at most as long as the files hold, and the whole read has a time limit
// and a byte budget, so a hostile file cannot make a read hang or take the
// machine's memory.
type dbStore struct {
	path   string
	db     *sql.DB
	conn   *sql.Conn // the one connection, which carries the length limit
	ctx    context.Context
	cancel context.CancelFunc
	limit  time.Duration
	budget int64           // bytes of values left to read
	cols   map[string]bool // session table columns (they grew in 1.18)
	tables map[string]bool // the optional tables present (project, todo)
}

// dbBounds says, from the size of a database's files, how long reading it
// may take (a minute, and a second more per MiB: ordinary reads go at tens
// of MiB a second), how long one value may be (no stored value is longer
// than the files; SQLite refuses a longer one, computed or from a corrupt
// record, with "string or blob too big"), and how many bytes of values all
// the queries of one open may read (each table is read at most twice).
var dbBounds = func(size int64) (time.Duration, int64, int64) {
	return time.Minute + time.Duration(size>>20)*time.Second, min(size+1<<20, 1<<30), 2*size + 16<<20
}

// isOpenCodeDB: an SQLite database with session, message and part tables
// (or views: a hostile one is still OpenCode's, and refused when read), or
// with OpenCode 2.x's session_v2 and session_message (refused when read:
// checkSchema).
func isOpenCodeDB(path string) bool {
	s, err := connect(path)
	if err != nil {
		return false
	}
	defer s.Close()
	// one small query, under its own limit: the store's is for reading it
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var n int
	row := s.conn.QueryRowContext(ctx, `SELECT count(DISTINCT name) FROM sqlite_master WHERE name IN ('session', 'message', 'part')`)
	if row.Scan(&n) == nil && n == 3 {
		return true
	}
	v2, err := s.isV2(ctx)
	return err == nil && v2
}

// v2Tables are the tables OpenCode 2.0 keeps its sessions in, in the same
// opencode.db, having copied the 1.x sessions into them under the same
// ids.
var v2Tables = []string{"session_v2", "session_message"}

// isV2 says whether the database is OpenCode 2.x's: it has v2Tables.
func (s *dbStore) isV2(ctx context.Context) (bool, error) {
	var n int
	row := s.conn.QueryRowContext(ctx, `SELECT count(DISTINCT name) FROM sqlite_master WHERE name IN (?, ?)`, v2Tables[0], v2Tables[1])
	if err := row.Scan(&n); err != nil {
		return false, err
	}
	return n == len(v2Tables), nil
}

// openDB opens path for reading its sessions: its schema is checked first.
func openDB(path string) (*dbStore, error) {
	s, err := connect(path)
	if err != nil {
		return nil, err
	}
	if err := s.checkSchema(); err != nil {
		s.Close()
		if se, ok := err.(*schemaError); ok {
			return nil, &exitcode.Error{Code: exitcode.Invalid, Err: fmt.Errorf("%s: %w", path, se)}
		}
		return nil, s.fail(err)
	}
	return s, nil
}

// schemaError: the database is not one sesstool reads (checkSchema); err
// is a *format.Unsupported when it is a newer OpenCode's.
type schemaError struct {
	msg string
	err error
}

func (e *schemaError) Error() string { return e.msg }
func (e *schemaError) Unwrap() error { return e.err }

// connect opens the database at path, or the private copy of it and its
// write-ahead log, on one connection with the bounds set.
func connect(path string) (*dbStore, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	src, err := sourceOf(abs)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", src.URI("_pragma=query_only(1)&_pragma=trusted_schema(0)"))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	s := &dbStore{path: path, db: db, cols: map[string]bool{}, tables: map[string]bool{}}
	var length int64
	s.limit, length, s.budget = dbBounds(src.Size)
	s.ctx, s.cancel = context.WithTimeout(context.Background(), s.limit)
	if s.conn, err = db.Conn(context.Background()); err == nil {
		_, err = sqlite.Limit(s.conn, sqlite3.SQLITE_LIMIT_LENGTH, int(length))
	}
	if err != nil {
		err = s.fail(err) // before Close, which ends the time limit's context
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *dbStore) Close() error {
	if s.conn != nil {
		s.conn.Close()
	}
	s.cancel()
	return s.db.Close()
}

// query runs q on the store's connection, under its time limit.
func (s *dbStore) query(q string, args ...any) (*sql.Rows, error) {
	return s.conn.QueryContext(s.ctx, q, args...)
}

// take counts the bytes of values read against the budget.
func (s *dbStore) take(vals ...string) error {
	for _, v := range vals {
		s.budget -= int64(len(v))
	}
	if s.budget < 0 {
		return &exitcode.Error{Code: exitcode.Invalid, Err: fmt.Errorf("its values hold more bytes than its files (a corrupt or hostile database?)")}
	}
	return nil
}

// fail words an error met reading the database, naming the time limit when
// that was what ended the read.
func (s *dbStore) fail(err error) error {
	if errors.Is(s.ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("read %s: gave up after %v (a query that does not end: a corrupt or hostile database?)", s.path, s.limit)
	}
	if isCorrupt(err) {
		return &exitcode.Error{Code: exitcode.Invalid, Err: &corruptError{fmt.Errorf("read %s: %w", s.path, err)}}
	}
	err = fmt.Errorf("read %s: %w", s.path, err)
	if strings.Contains(err.Error(), "string or blob too big") {
		return &exitcode.Error{Code: exitcode.Invalid, Err: err}
	}
	return err
}

// corruptError: SQLite found the database's file damaged or not a database
// at all. It is what the file holds, not a failure to read it, so it is
// invalid input (a db-corrupt finding, exit 1) like any malformed session
// file, not an I/O error.
type corruptError struct{ err error }

func (e *corruptError) Error() string { return e.err.Error() }
func (e *corruptError) Unwrap() error { return e.err }

// isCorrupt says whether err is SQLite's SQLITE_CORRUPT or SQLITE_NOTADB
// (extended codes included): a truncated file, random bytes, a valid
// header over pages that are not.
func isCorrupt(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

func (s *dbStore) list() ([]sessionRef, error) {
	rows, err := s.query(`SELECT id, project_id, coalesce(parent_id, '') FROM session ORDER BY id`)
	if err != nil {
		return nil, s.fail(err)
	}
	defer rows.Close()
	var out []sessionRef
	for rows.Next() {
		var r sessionRef
		if err := rows.Scan(&r.ID, &r.ProjectID, &r.ParentID); err != nil {
			return nil, s.fail(err)
		}
		if err := s.take(r.ID, r.ProjectID, r.ParentID); err != nil {
			return nil, s.fail(err)
		}
		r.File = s.path
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(err)
	}
	return out, nil
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
	d := &Doc{Info: info, ProjectID: ref.ProjectID, FromDB: true}
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
	rows, err := s.query(q+" FROM session WHERE id = ?", id)
	if err != nil {
		return nil, s.fail(err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, s.fail(err)
		}
		return nil, fmt.Errorf("read %s: session %s: %w", s.path, id, sql.ErrNoRows)
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, s.fail(fmt.Errorf("session %s: %w", id, err))
	}
	row := map[string]any{}
	for i, c := range cols {
		row[c] = vals[i]
		if err := s.take(asString(vals[i])); err != nil {
			return nil, s.fail(err)
		}
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
	rows, err := s.query(`SELECT id, data FROM message WHERE session_id = ?`, sid)
	if err != nil {
		return s.fail(err)
	}
	idx := map[string]int{}
	for rows.Next() {
		var id, data string
		err := rows.Scan(&id, &data)
		if err == nil {
			err = s.take(id, data)
		}
		if err != nil {
			rows.Close()
			return s.fail(err)
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
	if err := rows.Err(); err != nil {
		return s.fail(err)
	}
	prows, err := s.query(`SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id`, sid)
	if err != nil {
		return s.fail(err)
	}
	defer prows.Close()
	for prows.Next() {
		var id, mid, data string
		err := prows.Scan(&id, &mid, &data)
		if err == nil {
			err = s.take(id, mid, data)
		}
		if err != nil {
			return s.fail(err)
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
	if err := prows.Err(); err != nil {
		return s.fail(err)
	}
	return nil
}

func (s *dbStore) todos(sid string) ([]byte, error) {
	if !s.tables["todo"] {
		return nil, nil // no todo table: nothing to carry
	}
	rows, err := s.query(`SELECT content, status, priority FROM todo WHERE session_id = ? ORDER BY position`, sid)
	if err != nil {
		return nil, s.fail(err)
	}
	defer rows.Close()
	var items [][]byte
	for rows.Next() {
		var c, st, p string
		err := rows.Scan(&c, &st, &p)
		if err == nil {
			err = s.take(c, st, p)
		}
		if err != nil {
			return nil, s.fail(err)
		}
		var o jsonx.Obj
		items = append(items, o.Str("content", c).Str("status", st).Str("priority", p).Bytes())
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(err)
	}
	if len(items) == 0 {
		return nil, nil
	}
	return jsonx.Arr(items), nil
}

func (s *dbStore) project(id string) ([]byte, error) {
	var worktree string
	var vcs, name sql.NullString
	var created, updated int64
	var sandboxes sql.NullString
	if !s.tables["project"] {
		return nil, nil
	}
	rows, err := s.query(`SELECT worktree, vcs, name, time_created, time_updated, sandboxes FROM project WHERE id = ?`, id)
	if err != nil {
		return nil, s.fail(err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, s.fail(err)
		}
		return nil, nil // no such project row: validate reports the orphan
	}
	if rows.Scan(&worktree, &vcs, &name, &created, &updated, &sandboxes) != nil {
		return nil, nil // a row OpenCode would not write either: left out, as before
	}
	if err := s.take(worktree, vcs.String, name.String, sandboxes.String); err != nil {
		return nil, s.fail(err)
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

// integrityResult is what integrity answers.
type integrityResult struct {
	problems []string
	err      error
}

// integrityAside runs integrity on a connection of its own while the
// caller reads the rows: it takes about a fifth of validate's time.
func (s *dbStore) integrityAside() <-chan integrityResult {
	out := make(chan integrityResult, 1)
	go func() {
		aside, err := connect(s.path)
		if err != nil {
			out <- integrityResult{err: err}
			return
		}
		defer aside.Close()
		aside.tables = s.tables // checked already; only read from here on
		p, err := aside.integrity()
		out <- integrityResult{p, err}
	}()
	return out
}

// integrity runs SQLite's integrity check on each table read, which also
// compares every index with its table: the queries read values from
// whichever one the planner picks (a session's parts through their
// session index, every part in id order through the id's), so a corrupt
// index would let validate and the reader see different rows. It returns
// at most a few of the problems SQLite names; none when all is well.
func (s *dbStore) integrity() ([]string, error) {
	const most = 5
	var out []string
	for _, t := range dbTables {
		if !t.optional || s.tables[t.name] {
			found, err := s.checkTable(t.name, most-len(out))
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
		}
		if len(out) >= most {
			break
		}
	}
	return out, nil
}

// checkTable is integrity for one table (its name is one of dbTables').
func (s *dbStore) checkTable(name string, most int) ([]string, error) {
	rows, err := s.query(`PRAGMA integrity_check(` + name + `)`)
	if err != nil {
		return nil, s.fail(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() && len(out) < most {
		var msg string
		if err := rows.Scan(&msg); err != nil {
			return nil, s.fail(err)
		}
		if msg != "ok" {
			out = append(out, msg)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(err)
	}
	return out, nil
}
