package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/registry"
)

// Unit is one path a layout claims: a session file, a session directory, or
// a store.
type Unit struct {
	Format format.Format
	Path   string
	// Size is the file's size when the run found it (0 for a directory):
	// what the run reads of it, validation included (format.Ref.Size).
	Size int64
}

// readDir lists a directory; the walk's tests replace it to make a listing
// fail where permissions cannot (a test run as root reads everything).
var readDir = os.ReadDir

// Walk finds what is at root, the path the user named. When root itself is
// a session or a store (of the forced layout, when forced is set), it is
// one unit. A directory is otherwise walked: each entry a layout claims
// becomes a unit and is not descended into, except a folder of
// self-contained session directories (an ash or goat store), which is
// walked so that whatever else it holds is seen too. Symlinked directories
// are followed once. Hidden entries and *.bak backups are not walked into
// (named, they are read like any path).
//
// Nothing is passed over in silence: every path skipped is a Skip (see
// Skip for the policy), and a named directory in which no session was found
// is one too; so is whatever a unit holds that its layout neither reads
// nor expects (format.Unreader: a store or session directory is not
// walked into, so its layout says what it passes over there). A forced
// layout accepts a named file when it is a single-file layout (whatever is
// wrong with the file is then its findings) or when it lists a session for
// the file; otherwise the file is a format-mismatch.
func Walk(root string, forced format.Format) ([]Unit, []Skip) {
	w := walker{forced: forced, seen: map[[2]uint64]bool{}}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, []Skip{statSkip(root, err, true)}
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return nil, []Skip{notRegular(root, fi, true)}
	}
	if !fi.IsDir() {
		if f := w.claimNamedFile(root); f != nil {
			return []Unit{{Format: f, Path: root}}, nil
		}
		return nil, []Skip{w.unclaimed(root, true)}
	}
	f := w.claim(root)
	if f != nil && !folderOfSessions(f, root) {
		w.add(f, root)
		return w.units, w.skipped
	}
	w.dir(root, true, f)
	if len(w.units) == 0 && !w.rootUnreadable {
		what := "session files or directories"
		if forced != nil {
			what = forced.Name() + " " + what
		}
		w.skipped = append(w.skipped, Skip{root, RuleNoSessions, "no " + what + " found here", true})
	}
	return w.units, w.skipped
}

type walker struct {
	forced         format.Format
	seen           map[[2]uint64]bool
	units          []Unit
	skipped        []Skip
	rootUnreadable bool
}

// dir walks a directory's entries; owner, when not nil, is the layout of
// the folder of sessions dir is, whose own folders beside them
// (format.Keeper) are passed over.
func (w *walker) dir(dir string, named bool, owner format.Format) {
	if id, ok := fileID(dir); ok {
		if w.seen[id] {
			w.skipped = append(w.skipped, Skip{dir, RuleSymlinkLoop, "directory already visited (symlink loop)", named})
			return
		}
		w.seen[id] = true
	}
	ents, err := readDir(dir)
	if err != nil {
		w.skipped = append(w.skipped, statSkip(dir, err, named))
		if named {
			w.rootUnreadable = true // its own finding says enough
		}
		return
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	units, skips := len(w.units), len(w.skipped)
	defer func() { w.ownedBySiblings(dir, units, skips) }()
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || strings.HasSuffix(e.Name(), ".bak") {
			// Hidden, or a backup sesstool migrate kept: not a live
			// session, never validated, converted or migrated again while
			// walking. Named on the command line, it is read like any path.
			continue
		}
		p := filepath.Join(dir, e.Name())
		if k, ok := owner.(format.Keeper); ok && k.Keeps(p, e.IsDir()) {
			continue
		}
		w.entry(p)
	}
}

func (w *walker) entry(p string) {
	fi, err := os.Stat(p)
	if err != nil {
		w.skipped = append(w.skipped, statSkip(p, err, false))
		return
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		// Never opened: a FIFO with no writer would block forever.
		w.skipped = append(w.skipped, notRegular(p, fi, false))
		return
	}
	if f := w.claim(p); f != nil {
		if fi.IsDir() && folderOfSessions(f, p) {
			w.dir(p, false, f)
			return
		}
		w.add(f, p)
		return
	}
	if fi.IsDir() {
		w.dir(p, false, nil)
		return
	}
	if w.forced != nil && ofShape(w.forced, p) {
		// With --format, every file of the layout's shape is held to it:
		// what is wrong with it is its findings, not a format-mismatch.
		w.add(w.forced, p)
		return
	}
	w.skipped = append(w.skipped, w.unclaimed(p, false))
}

// ofShape reports whether p has the shape of a file of the single-file
// layout f: its extension (a tree or flat session's .jsonl, an export's
// .json).
func ofShape(f format.Format, p string) bool {
	if _, file := f.(format.Stream); !file {
		return false
	}
	return strings.HasSuffix(filepath.Base(p), registry.FileExt(f))
}

// ownedBySiblings turns the unknown-format skips the walk of dir made
// (those from index skips on) into units of a single-file layout, when the
// files directly in dir that were claimed (from index units on) are all of
// that one layout and the skipped file has its shape: a *.jsonl among pi
// sessions that no layout recognises is a damaged pi session, and validate
// says what is wrong with it (an error) instead of a warning that it is in
// no known format. Files of another shape (a README, an image) stay
// unknown-format warnings, and so does a file among sessions of more than
// one layout of its shape, which could be either.
func (w *walker) ownedBySiblings(dir string, units, skips int) {
	owners := map[string]format.Format{} // extension -> the one layout claiming files of it here
	mixed := map[string]bool{}
	for _, u := range w.units[units:] {
		if filepath.Dir(u.Path) != dir || !ofShape(u.Format, u.Path) {
			continue
		}
		ext := registry.FileExt(u.Format)
		if o, ok := owners[ext]; ok && o.Name() != u.Format.Name() {
			mixed[ext] = true
		}
		owners[ext] = u.Format
	}
	if len(owners) == 0 {
		return
	}
	kept := w.skipped[:skips]
	for _, sk := range w.skipped[skips:] {
		if sk.Rule == RuleUnknownFormat && filepath.Dir(sk.Path) == dir {
			if f := owner(owners, mixed, sk.Path); f != nil {
				w.units = append(w.units, Unit{Format: f, Path: sk.Path})
				continue
			}
		}
		kept = append(kept, sk)
	}
	w.skipped = kept
}

// owner is the layout owning p among owners: the longest extension p has
// that one layout alone claims here.
func owner(owners map[string]format.Format, mixed map[string]bool, p string) format.Format {
	var best format.Format
	bestLen := 0
	for ext, f := range owners {
		if strings.HasSuffix(filepath.Base(p), ext) && len(ext) > bestLen {
			best, bestLen = f, len(ext)
			if mixed[ext] {
				best = nil
			}
		}
	}
	return best
}

// add makes p a unit of f, and reports what f passes over inside it (a
// store or session directory is not walked into): the same skip policy
// holds there too.
func (w *walker) add(f format.Format, p string) {
	w.units = append(w.units, Unit{Format: f, Path: p})
	u, ok := f.(format.Unreader)
	if !ok {
		return
	}
	for _, s := range u.Unread(p) {
		w.skipped = append(w.skipped, straySkip(s, f))
	}
}

func (w *walker) claim(p string) format.Format {
	if w.forced != nil {
		if w.forced.Detect(p) || format.ByName(w.forced, p) {
			return w.forced
		}
		return nil
	}
	return registry.Detect(p)
}

// claimNamedFile is the layout of a file named on the command line.
func (w *walker) claimNamedFile(p string) format.Format {
	if w.forced == nil {
		return registry.Detect(p)
	}
	if _, file := w.forced.(format.Stream); file || w.forced.Detect(p) {
		return w.forced
	}
	// A file of a session directory stands for its directory when the
	// layout says so (ash's context.jsonl named with --format ash).
	if refs, err := w.forced.Sessions(p); err == nil && len(refs) > 0 {
		return w.forced
	}
	return nil
}

func (w *walker) unclaimed(p string, named bool) Skip {
	// A file no layout could read the head of may only be unreadable:
	// say that, not that it is in no known format.
	f, err := regfile.Open(p)
	if err != nil {
		return statSkip(p, err, named)
	}
	f.Close()
	if w.forced == nil {
		return Skip{p, RuleUnknownFormat, "not a session in any known format", named}
	}
	return Skip{p, RuleFormatMismatch, fmt.Sprintf("not a session in the %s layout (given with --format or --from)", w.forced.Name()), named}
}

// folderOfSessions reports whether dir, which f claims, is only a folder
// of session directories that each stand alone (their refs name
// themselves), rather than one session or a store f reads as a whole. Such
// a folder is walked like any other, so a goat or ash session beside other
// things does not hide them.
func folderOfSessions(f format.Format, dir string) bool {
	if !holdsClaimedDir(f, dir) {
		return false // listing sessions can be costly (a store read whole)
	}
	refs, err := f.Sessions(dir)
	if err != nil || len(refs) == 0 {
		return false
	}
	for _, r := range refs {
		if r.ID != "" || filepath.Clean(filepath.Dir(r.Path)) != filepath.Clean(dir) {
			return false
		}
	}
	return true
}

// holdsClaimedDir reports whether f claims a directory directly inside dir.
func holdsClaimedDir(f format.Format, dir string) bool {
	ents, err := readDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && !strings.HasPrefix(e.Name(), ".") && f.Detect(p) {
			return true
		}
	}
	return false
}

func fileID(p string) ([2]uint64, bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return [2]uint64{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return [2]uint64{}, false
	}
	return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, true
}
