package opencode

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/report"
)

// The JSON tree layouts (1.x storage/, 0.x per-project) keep one small file
// per object: a store of 10,000 messages is 60,000 files. A walk lists each
// directory once, in the order the checks want (projects, sessions,
// messages, parts, side files; names sorted), and a pool of workers reads
// and checks the files; the results go to the store-wide rules in that
// order, so findings are the same as from a walk of one file at a time.

// kind is what a file of a tree store holds.
type kind uint8

const (
	kindProject kind = iota
	kindSession
	kindMessage
	kindPart
	kindTodo
	kindDiff
	// kindStray is an entry of a tree's part folder that is not a JSON
	// file: Unread does not list those folders (store.go), so the walk
	// that lists them anyway reports it
	kindStray
)

// task is one file of a tree store.
type task struct {
	kind kind
	dir  string // the directory holding the file
	name string // the file's name
	path string
	in   string // the directory key it is filed under: project (session), session (message), message (part)
	in2  string // a legacy part's session directory
	n    int    // how many files the directory has
}

// key is the file name without .json: the id the file should hold.
func (t *task) key() string { return t.name[:len(t.name)-len(".json")] }

// result is what the checks of one file found.
type result struct {
	v      []byte // compact JSON, in its batch's buffer; nil when the file could not be read or is not JSON
	ok     bool   // the file is JSON, at out[lo:hi] of its batch
	lo, hi int
	found  findings // in the order the checks made them
	o      obj
	panic  any // raised again on the walking goroutine, where a panic is turned into an error
}

// eachSubdir calls fn for each of dir's subdirectories (not hidden), in
// name order.
func eachSubdir(dir string, fn func(path, name string)) {
	names, ok := listNames(dir, true, nil)
	if !ok {
		return
	}
	for i := range names.refs {
		name := names.get(int32(i))
		fn(filepath.Join(dir, name), name)
	}
}

// listNames lists dir's entries that are directories (dirs) or *.json
// files, not hidden, sorted by name; stray, when not nil, is given the
// others (not hidden, not a .bak), in directory order. A directory of a
// million files is read a batch at a time and its names kept end to end
// (about 40 bytes a name, where os.ReadDir's entries took over 100); false
// when dir cannot be read whole.
func listNames(dir string, dirs bool, stray func(name string)) (*strs, bool) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	names := &strs{}
	for {
		ents, err := f.ReadDir(1024)
		for _, e := range ents {
			n := e.Name()
			switch {
			case strings.HasPrefix(n, "."):
			case e.IsDir() == dirs && (dirs || strings.HasSuffix(n, ".json")):
				names.add(n)
			case stray != nil && !strings.HasSuffix(n, ".bak"):
				stray(n)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, false
		}
	}
	names.sort()
	return names, true
}

// files emits a task for each of dir's JSON files.
func files(emit func(task), k kind, dir, in, in2 string) {
	listFiles(emit, k, dir, in, in2, nil)
}

// partFiles emits a task for each JSON file of a tree's part folder, and
// for each other entry in it, first.
func partFiles(emit func(task), dir, msg string) {
	listFiles(emit, kindPart, dir, msg, "", func(name string) {
		emit(task{kind: kindStray, dir: dir, name: name, path: filepath.Join(dir, name)})
	})
}

func listFiles(emit func(task), k kind, dir, in, in2 string, stray func(name string)) {
	names, ok := listNames(dir, false, stray)
	if !ok {
		return
	}
	for i := range names.refs {
		name := names.get(int32(i))
		emit(task{kind: k, dir: dir, name: name, path: filepath.Join(dir, name), in: in, in2: in2, n: len(names.refs)})
	}
}

// treeTasks lists the files of a 1.x storage/ tree.
func treeTasks(root string, emit func(task)) {
	files(emit, kindProject, filepath.Join(root, "project"), "", "")
	for _, k := range []struct {
		kind kind
		name string
	}{{kindSession, "session"}, {kindMessage, "message"}} {
		eachSubdir(filepath.Join(root, k.name), func(dir, name string) { files(emit, k.kind, dir, name, "") })
	}
	eachSubdir(filepath.Join(root, "part"), func(dir, name string) { partFiles(emit, dir, name) })
	files(emit, kindTodo, filepath.Join(root, "todo"), "", "")
	files(emit, kindDiff, filepath.Join(root, "session_diff"), "", "")
}

// legacyTasks lists the files of a 0.x per-project tree.
func legacyTasks(root string, emit func(task)) {
	each := func(f func(proj, name string)) { eachSubdir(filepath.Join(root, "project"), f) }
	if isLegacyProject(root) {
		each = func(f func(proj, name string)) { f(root, filepath.Base(root)) }
	}
	each(func(proj, _ string) {
		base := filepath.Join(proj, "storage", "session")
		files(emit, kindSession, filepath.Join(base, "info"), "", "")
		eachSubdir(filepath.Join(base, "message"), func(dir, name string) { files(emit, kindMessage, dir, name, "") })
		eachSubdir(filepath.Join(base, "part"), func(sdir, sname string) {
			eachSubdir(sdir, func(mdir, mname string) { files(emit, kindPart, mdir, mname, sname) })
		})
	})
}

// worker holds one worker's buffer for the file being read, and the
// checker the checks of one file run on.
type worker struct {
	buf   []byte
	found findings
	fc    checker // fc.rep is &found
}

func newWorker() *worker {
	w := &worker{buf: make([]byte, 0, 64<<10)}
	w.fc.rep = &w.found
	return w
}

// check reads and checks one file: everything that needs only the file.
// It runs on a worker and touches nothing shared; the compact bytes are
// appended to out.
func (w *worker) check(t *task, out []byte) (_ []byte, res result) {
	if t.kind == kindStray {
		return out, res
	}
	defer func() {
		if r := recover(); r != nil {
			res.panic = r
		}
		if len(w.found) > 0 { // rare: hand the list over, start a new one
			res.found, w.found = w.found, nil
		}
	}()
	b, err := readFile(t.path, w.buf)
	w.buf = b
	if err != nil {
		w.found.Errorf(t.path, 0, "", "io", "read: %v", err)
		return out, res
	}
	fc := &w.fc
	start := len(out)
	out, ok := fc.parseAppend(out, loc{path: t.path}, b)
	if !ok {
		return out, res
	}
	v := out[start:]
	res.ok, res.lo, res.hi = true, start, len(out)
	at := loc{path: t.path, src: b, file: true}
	switch t.kind {
	case kindProject:
		res.o = fc.checkProject(at, v, t.key())
	case kindSession:
		res.o = fc.checkSession(at, v, t.key(), t.in)
	case kindMessage:
		res.o = fc.checkMessage(at, v, t.key(), t.in)
	case kindPart:
		res.o = fc.checkPart(at, v, t.key(), t.in, t.in2)
	case kindTodo:
		fc.schema(at, "opencode/todo.json", v)
	case kindDiff:
		fc.schema(at, "opencode/session-diff.json", v)
	}
	return out, res
}

// add applies the store-wide bookkeeping to one checked file, in store order.
func (c *checker) add(t *task, r *result) {
	if r.panic != nil {
		panic(r.panic)
	}
	if t.kind == kindStray {
		c.rep.Add(report.Finding{Path: t.path, Severity: report.Warning, Rule: format.RuleStray, Message: format.StrayMessage(Format{}.Name(), "")})
		return
	}
	c.files++
	for _, f := range r.found {
		c.rep.Add(f)
	}
	if !r.ok {
		return
	}
	at := loc{path: t.dir, name: t.name, file: true}
	switch t.kind {
	case kindProject:
		c.addProject(r.o)
	case kindSession:
		c.addSession(at, r.o)
	case kindMessage:
		c.addMessage(at, r.o)
	case kindPart:
		c.addPart(at, r.o)
	case kindTodo, kindDiff:
		if _, ok := c.sessions[t.key()]; !ok {
			c.rep.Warnf(t.path, 0, "", ruleOrphanSession, "no session %s for this file (OpenCode keeps these after deleting a session)", t.key())
		}
	}
	if c.snap != nil {
		c.keep(t, r.v)
	}
}

// maxSnapshot bounds what a validation keeps of a store for reading it
// again: a larger store (users have stores of several GB) is validated
// without keeping its files, and its sessions are then read from the disk,
// one at a time, so memory stays bounded by the largest session.
var maxSnapshot = 256 << 20

func (c *checker) keep(t *task, v []byte) {
	if c.snap.size+len(v) > maxSnapshot {
		c.snap = nil // read from the disk instead
		return
	}
	c.snap.add(t.dir, t.name, v, t.n)
}

// batchFiles is how many files a worker takes at a time: enough to make the
// hand-over cheap, few enough to keep both cores busy on small stores.
const batchFiles = 64

type batch struct {
	tasks []task
	res   []result
	out   []byte // the compact bytes of the batch's files
	ready chan struct{}
}

// walk checks every file that list names, on workers goroutines, and hands
// the results to c.add in list order.
func (c *checker) walk(list func(emit func(task)), workers int) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	queue := make(chan *batch, 4*workers) // bounds the results waiting for c.add
	idle := make(chan *worker, workers)
	for range workers {
		idle <- newWorker()
	}
	spare := make(chan []byte, 4*workers+workers+1) // batch buffers c.add is done with
	go func() {
		defer close(queue)
		cur := &batch{tasks: make([]task, 0, batchFiles)}
		flush := func() {
			b := cur
			cur = &batch{tasks: make([]task, 0, batchFiles)}
			b.ready = make(chan struct{})
			queue <- b
			w := <-idle
			select {
			case b.out = <-spare:
			default:
			}
			go func() {
				defer func() { idle <- w }()
				b.res = make([]result, len(b.tasks))
				for i := range b.tasks {
					b.out, b.res[i] = w.check(&b.tasks[i], b.out)
				}
				// out may have moved as it grew: point into where it ended
				for i := range b.res {
					if r := &b.res[i]; r.ok {
						r.v = b.out[r.lo:r.hi:r.hi]
					}
				}
				close(b.ready)
			}()
		}
		list(func(t task) {
			if cur.tasks = append(cur.tasks, t); len(cur.tasks) == batchFiles {
				flush()
			}
		})
		if len(cur.tasks) > 0 {
			flush()
		}
	}()
	var pending any
	for b := range queue {
		<-b.ready
		for i := range b.tasks {
			if pending == nil {
				pending = c.safeAdd(&b.tasks[i], &b.res[i])
			}
		}
		select {
		case spare <- b.out[:0]:
		default:
		}
	}
	if pending != nil {
		panic(pending) // after the lister has finished: no goroutine is left behind
	}
}

func (c *checker) safeAdd(t *task, r *result) (p any) {
	defer func() { p = recover() }()
	c.add(t, r)
	return nil
}

// tree checks the 1.x storage/ tree.
func (c *checker) tree(root string, workers int) {
	mp := filepath.Join(root, "migration")
	if b, err := regfile.ReadFile(mp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.files++
		c.rep.Errorf(mp, 0, "", "io", "read: %v", err) // as a store file that cannot be read
	} else if err == nil {
		c.files++
		if _, err := strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
			c.rep.Errorf(filepath.Join(root, "migration"), 1, "", ruleMigration, "migration holds %q, not a number", strings.TrimSpace(string(b)))
		}
	}
	c.walk(func(emit func(task)) { treeTasks(root, emit) }, workers)
}

// legacy checks the 0.x per-project tree.
func (c *checker) legacy(root string, workers int) {
	c.walk(func(emit func(task)) { legacyTasks(root, emit) }, workers)
}
