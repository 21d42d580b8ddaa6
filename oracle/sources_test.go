package oracle

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/session"
)

// source is a session to convert into an agent's home and resume there.
type source struct {
	name, layout string
	path         string   // under the repository, or under ../shared when shared
	session      string   // the session's id, where path holds several; "" for its main session
	shared       bool     // under ../shared (skipped without it)
	unknown      []string // line types of the source sesstool rightly does not know
}

// eachSource runs resume for each of srcs as a parallel subtest, given the
// source's path and the session it names (or its main session): the
// set-up every resume test shares. A source under ../shared is skipped
// when ../shared is not there (peers.Need: a failure where the peers are
// required).
func eachSource(t *testing.T, srcs []source, resume func(t *testing.T, src source, path string, s *session.Session)) {
	t.Helper()
	for _, src := range srcs {
		t.Run(src.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(peers.RepoRoot(), filepath.FromSlash(src.path))
			if src.shared {
				path = filepath.Join(shared.Dir(), filepath.FromSlash(src.path))
				if _, err := os.Stat(path); err != nil {
					peers.Need(t, "real-world session not found (set SESSTOOL_SHARED): "+err.Error())
				}
			}
			var s *session.Session
			if src.session != "" {
				s = pickSession(t, src.layout, path, src.session)
			} else {
				s = mainSession(t, src.layout, path)
			}
			resume(t, src, path, s)
		})
	}
}
