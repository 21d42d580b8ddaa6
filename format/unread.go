package format

import (
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Unreader is implemented by layouts whose store or session directory is
// read as one unit (a Codex home, a Claude Code store or project folder,
// an OpenCode storage tree, an ash or goat session directory): the walk
// does not look inside such a unit, so the layout says what it passed
// over there. Unread lists, in path order, the paths inside the unit at
// path that the layout neither reads nor expects (what its program keeps
// there beside the sessions is expected, and not listed); the walk
// reports each one, so that nothing in a store is passed over in
// silence. It only lists directories, never reads a file's content, except
// where the layout must look inside one to tell whom it belongs to (Claude
// Code's older sub-agent files name their session only in their lines). A
// unit that is a file has nothing inside it: nil.
type Unreader interface {
	Unread(path string) []Stray
}

// Keeper is implemented by layouts whose sessions stand alone in a folder
// (a directory each, which the walk goes through like any folder) beside
// folders their program keeps there that hold no session (goat's memory
// folders): Keeps reports whether path, an entry of such a folder (a
// directory when dir), is one of them. The walk passes over those without
// a finding, as Unread leaves out what a program keeps inside its units.
type Keeper interface {
	Keeps(path string, dir bool) bool
}

// StraysInValidation is implemented by Loaders whose Unread leaves some
// folders of a unit to the validation, which lists them anyway and reports
// what it does not read there (RuleStray findings): true for such a unit
// at path. A command that would not otherwise validate the unit (info)
// loads it, to name those too.
type StraysInValidation interface {
	Loader
	StraysInValidation(path string) bool
}

// RuleStray is the rule of the finding every command gives a Stray. A
// layout that meets a stray only while reading (a folder it lists anyway,
// too costly for Unread to list again) reports it in its validation with
// this rule and StrayMessage, and the commands report it as they do the
// others.
const RuleStray = "stray"

// StrayMessage is a stray's finding message: why, or that layout neither
// reads nor expects it.
func StrayMessage(layout, why string) string {
	if why == "" {
		why = "the " + layout + " layout neither reads nor expects this here"
	}
	return "not read: " + why
}

// Stray is one path inside a unit that its layout does not read.
type Stray struct {
	Path string
	// Why says why it is not read, when there is more to say than that the
	// layout neither reads nor expects it there ("" otherwise).
	Why string
	// Err is set when the directory at Path could not be listed: what is in
	// it is not known, and so not read either.
	Err error
}

// Contents declares what a unit holds, as slash-separated patterns
// relative to the unit's root: each segment a path.Match pattern, or "**"
// for any number of folders; a pattern ending in "/" names a directory,
// taken whole. Hidden entries and *.bak backups are never listed, as the
// walk passes over them everywhere.
type Contents struct {
	// Read is what the layout reads.
	Read []string
	// Known is what the agent keeps there that the layout does not read
	// (its settings, logs, lock files, caches): expected, never reported.
	Known []string
}

// Strays lists what under root matches neither Read nor Known, sorted by
// path. A directory named by a folder pattern is taken whole; else one
// some pattern reaches into is looked inside; any other directory
// matching no pattern is one stray, not looked inside.
func (c Contents) Strays(root string) []Stray {
	w := strayWalk{sem: make(chan struct{}, runtime.GOMAXPROCS(0))}
	w.dir(root, closure(c.states()))
	w.wg.Wait()
	slices.SortFunc(w.out, func(a, b Stray) int { return strings.Compare(a.Path, b.Path) })
	return w.out
}

// Has reports whether some pattern names the slash-separated path rel
// itself (a directory when isDir).
func (c Contents) Has(rel string, isDir bool) bool {
	states := c.states()
	segs := strings.Split(rel, "/")
	for i, name := range segs {
		states = closure(states)
		if i == len(segs)-1 {
			return judge(states, name, isDir).named
		}
		states = judge(states, name, true).inside
	}
	return false
}

// states are the patterns, none matched yet.
func (c Contents) states() []state {
	var out []state
	for _, ps := range [][]string{c.Read, c.Known} {
		for _, p := range ps {
			out = append(out, state{&pattern{segs: split(p), dir: strings.HasSuffix(p, "/")}, 0})
		}
	}
	return out
}

type pattern struct {
	segs []string
	dir  bool // a folder, taken whole
}

// state is a pattern matched up to segs[i], the segment the next entry
// down must match. The walk carries the states alive in each folder, so
// an entry is matched against those alone: a store of many small folders
// (OpenCode's part/<message>/) is listed at the cost of one match per file.
type state struct {
	p *pattern
	i int
}

// closure adds, for each state at "**", the state past it ("**" matching
// no folder at all).
func closure(states []state) []state {
	for k := 0; k < len(states); k++ {
		if s := states[k]; s.i < len(s.p.segs) && s.p.segs[s.i] == "**" {
			states = append(states, state{s.p, s.i + 1})
		}
	}
	return states
}

// verdict is what the states make of one entry.
type verdict struct {
	named  bool    // a pattern names it
	whole  bool    // a folder pattern names it: taken whole
	inside []state // the states alive inside it, a folder
}

func judge(states []state, name string, isDir bool) verdict {
	var v verdict
	for _, s := range states {
		if s.i >= len(s.p.segs) {
			continue
		}
		seg := s.p.segs[s.i]
		if seg == "**" {
			if isDir {
				v.inside = append(v.inside, s) // one more folder
			}
			continue
		}
		if ok, _ := path.Match(seg, name); !ok {
			continue
		}
		switch {
		case s.i < len(s.p.segs)-1:
			if isDir {
				v.inside = append(v.inside, state{s.p, s.i + 1})
			}
		case s.p.dir:
			if isDir {
				v.named, v.whole = true, true
			}
		default:
			v.named = true
		}
	}
	return v
}

// strayWalk lists a unit's folders a batch at a time, in the order the
// system gives, on as many cores as there are: a folder of a million
// entries (OpenCode's part/, one folder a message) is never held whole,
// and Strays sorts what it found.
type strayWalk struct {
	sem chan struct{} // a slot for each folder listed alongside
	wg  sync.WaitGroup
	mu  sync.Mutex
	out []Stray
}

const listBatch = 1024

func (w *strayWalk) dir(dir string, states []state) {
	f, err := os.Open(dir)
	if err != nil {
		w.add(Stray{Path: dir, Err: err})
		return
	}
	defer f.Close()
	for {
		ents, err := f.ReadDir(listBatch)
		for _, e := range ents {
			w.entry(dir, e, states)
		}
		if errors.Is(err, io.EOF) || (err == nil && len(ents) == 0) {
			return
		}
		if err != nil {
			w.add(Stray{Path: dir, Err: err})
			return
		}
	}
}

func (w *strayWalk) entry(dir string, e os.DirEntry, states []state) {
	name := e.Name()
	if strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".bak") {
		return
	}
	// Links are not followed: the layouts' own listings do not
	// follow them either (a linked folder is not read).
	v := judge(states, name, e.IsDir())
	switch {
	case v.whole:
	case len(v.inside) > 0:
		w.descend(filepath.Join(dir, name), closure(v.inside))
	case !v.named:
		w.add(Stray{Path: filepath.Join(dir, name)})
	}
}

// descend lists a folder alongside when a core is free, else here.
func (w *strayWalk) descend(dir string, states []state) {
	select {
	case w.sem <- struct{}{}:
		w.wg.Add(1)
		go func() {
			defer func() { <-w.sem; w.wg.Done() }()
			w.dir(dir, states)
		}()
	default:
		w.dir(dir, states)
	}
}

func (w *strayWalk) add(s Stray) {
	w.mu.Lock()
	w.out = append(w.out, s)
	w.mu.Unlock()
}

func split(p string) []string { return strings.Split(strings.TrimSuffix(p, "/"), "/") }
