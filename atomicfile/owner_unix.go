//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of the file it replaces. Only root
// may give a file away, and a member of the group may set that group, so
// a failure is not an error: the file then belongs to whoever ran sesstool,
// as any new file does.
func keepOwner(f *os.File, old fs.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		if f.Chown(int(st.Uid), int(st.Gid)) != nil {
			_ = f.Chown(-1, int(st.Gid))
		}
	}
}
