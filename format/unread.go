package format

import (
	"path"
	"path/filepath"
	"strings"
)

// Unreader is implemented by layouts whose store or session directory is
// read as one unit (a Codex home, a Claude Code store or project folder,
// an OpenCode storage tree, an ash or goat session directory): the walk
// does not look inside such a unit, so the layout says what it passed
// over there. Unread lists the paths inside the unit at path that the
// layout neither reads nor expects (what its program keeps there beside
// the sessions is expected, and not listed); the walk reports each one,
// so that nothing in a store is passed over in silence. It only lists
// directories, never reads a file's content, except where the layout must
// look inside one to tell whom it belongs to (Claude Code's older
// sub-agent files name their session only in their lines). A unit that is
// a file has nothing inside it: nil.
type Unreader interface {
	Unread(path string) []Stray
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
	// Keep is set when the layout lists the unit's folders again as it
	// reads them, through ReadDir (listing.go).
	Keep bool
}

// Strays lists what under root matches neither Read nor Known, in name
// order. A directory named by a folder pattern is taken whole; else one
// some pattern reaches into is looked inside; any other directory
// matching no pattern is one stray, not looked inside.
func (c Contents) Strays(root string) []Stray {
	if c.Keep {
		listings.Clear() // at most one unit's listings are held
	}
	var out []Stray
	walk(root, closure(c.states()), c.Keep, &out)
	return out
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

func walk(dir string, states []state, keep bool, out *[]Stray) {
	ents, err := readDir(dir, keep)
	if err != nil {
		*out = append(*out, Stray{Path: dir, Err: err})
		return
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".bak") {
			continue
		}
		// Links are not followed: the layouts' own listings do not
		// follow them either (a linked folder is not read).
		isDir := e.IsDir()
		v := judge(states, name, isDir)
		switch {
		case v.whole:
		case len(v.inside) > 0:
			walk(filepath.Join(dir, name), closure(v.inside), keep, out)
		case !v.named:
			*out = append(*out, Stray{Path: filepath.Join(dir, name)})
		}
	}
}

func split(p string) []string { return strings.Split(strings.TrimSuffix(p, "/"), "/") }
