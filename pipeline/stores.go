package pipeline

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
)

// Store is one agent's default store found on this machine.
type Store struct {
	Format format.Format
	Path   string
}

// ExistingStores is every layout's default store that exists here, in
// the registry's order, for a command that reads them all when no PATH
// and no --format is given (list). A store inside another one listed
// before it is left out (goat's ~/.claude/projects is inside Claude
// Code's ~/.claude): its sessions would be read twice, or the other
// agent's files named as not its own. None found is an I/O error that
// says to name a PATH.
func ExistingStores() ([]Store, error) {
	var out []Store
	for _, f := range registry.All {
		ds, ok := f.(format.DefaultStorer)
		if !ok {
			continue
		}
		p := ds.DefaultStore()
		if _, err := os.Stat(p); err != nil {
			continue
		}
		nested := false
		for _, s := range out {
			if p == s.Path || strings.HasPrefix(p, s.Path+string(filepath.Separator)) || strings.HasPrefix(s.Path, p+string(filepath.Separator)) {
				nested = true
			}
		}
		if !nested {
			out = append(out, Store{f, p})
		}
	}
	if len(out) == 0 {
		return nil, exitcode.IOError(errNoStores)
	}
	return out, nil
}

type noStores struct{}

func (noStores) Error() string {
	return "no agent's default store was found on this machine; name a PATH"
}

var errNoStores error = noStores{}
