package format

import (
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// A unit whose contents are listed by Unread when the walk meets it is
// listed again by its layout when it is read. Where that is many folders
// (OpenCode's part/<message>/, one per message), Contents.Keep holds on to
// what Strays listed, and ReadDir serves each folder once from it, for the
// cost of a stat, so that reporting strays does not list a large store
// twice. A folder changed since it was listed (its modification time
// differs) is listed again.
var listings sync.Map // folder path -> listing

type listing struct {
	mod  time.Time
	ents []os.DirEntry
}

// ReadDir is os.ReadDir (entries sorted by name), served from a listing
// Strays kept for dir, which it then forgets.
func ReadDir(dir string) ([]os.DirEntry, error) {
	if v, ok := listings.LoadAndDelete(dir); ok {
		l := v.(listing)
		if fi, err := os.Stat(dir); err == nil && fi.ModTime().Equal(l.mod) {
			return l.ents, nil
		}
	}
	return os.ReadDir(dir)
}

// readDir lists dir sorted by name, keeping the listing for ReadDir when
// keep is set.
func readDir(dir string, keep bool) ([]os.DirEntry, error) {
	if !keep {
		return os.ReadDir(dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The time is taken before the listing: a change made while listing
	// makes the kept listing stale, and ReadDir lists the folder again.
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ents, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	listings.Store(dir, listing{fi.ModTime(), ents})
	return ents, nil
}
