package format

import (
	"os"
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
}

// Strays lists what under root matches neither Read nor Known, in name
// order. A directory named by a folder pattern is taken whole; else one
// some pattern reaches into is looked inside; any other directory
// matching no pattern is one stray, not looked inside.
func (c Contents) Strays(root string) []Stray {
	var out []Stray
	c.walk(root, nil, &out)
	return out
}

func (c Contents) walk(dir string, rel []string, out *[]Stray) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		*out = append(*out, Stray{Path: dir, Err: err})
		return
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".bak") {
			continue
		}
		r := append(rel[:len(rel):len(rel)], name)
		p := filepath.Join(dir, name)
		// Links are not followed: the layouts' own listings do not
		// follow them either (a linked folder is not read).
		isDir := e.IsDir()
		switch {
		case isDir && c.whole(r):
		case isDir && c.reachesInto(r):
			c.walk(p, r, out)
		case !c.matches(r, isDir):
			*out = append(*out, Stray{Path: p})
		}
	}
}

// Has reports whether some pattern names the slash-separated path rel
// itself (a directory when isDir).
func (c Contents) Has(rel string, isDir bool) bool { return c.matches(strings.Split(rel, "/"), isDir) }

// matches reports whether some pattern names rel itself.
func (c Contents) matches(rel []string, isDir bool) bool {
	for _, ps := range [][]string{c.Read, c.Known} {
		for _, p := range ps {
			dirOnly := strings.HasSuffix(p, "/")
			if dirOnly && !isDir {
				continue
			}
			if match(split(p), rel) {
				return true
			}
		}
	}
	return false
}

// whole reports whether a folder pattern (ending in "/") names the folder
// rel: it is taken whole, even where another pattern reaches into it.
func (c Contents) whole(rel []string) bool {
	for _, ps := range [][]string{c.Read, c.Known} {
		for _, p := range ps {
			if strings.HasSuffix(p, "/") && match(split(p), rel) {
				return true
			}
		}
	}
	return false
}

// reachesInto reports whether some pattern names a path below rel.
func (c Contents) reachesInto(rel []string) bool {
	for _, ps := range [][]string{c.Read, c.Known} {
		for _, p := range ps {
			if below(split(p), rel) {
				return true
			}
		}
	}
	return false
}

func split(p string) []string { return strings.Split(strings.TrimSuffix(p, "/"), "/") }

// match reports whether the pattern segments pat match the path segments name.
func match(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if match(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], name[0])
	return ok && match(pat[1:], name[1:])
}

// below reports whether pat can match a path strictly below the folder name.
func below(pat, name []string) bool {
	switch {
	case len(name) == 0:
		return len(pat) > 0
	case len(pat) == 0:
		return false
	case pat[0] == "**":
		return len(pat) > 1 // any folder, then the rest
	}
	ok, _ := path.Match(pat[0], name[0])
	return ok && below(pat[1:], name[1:])
}
