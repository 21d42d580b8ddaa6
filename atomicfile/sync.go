package atomicfile

import (
	"os"
	"sync/atomic"
)

// noSync is set by Unsynced: fuzz targets convert thousands of inputs into
// throwaway directories, where an fsync buys nothing and, on a busy disk,
// took each conversion from milliseconds to a large part of a second.
var noSync atomic.Bool

// Unsynced turns every sync sesstool's writers make (through Sync and
// Skip) off until the returned function is called. For tests and fuzz
// targets only: the commands always sync.
func Unsynced() (restore func()) {
	old := noSync.Swap(true)
	return func() { noSync.Store(old) }
}

// Skip reports whether syncs are off (Unsynced): a writer that makes its
// output durable some other way (a syncfs of the whole tree) asks.
func Skip() bool { return noSync.Load() }

// Sync is f.Sync, unless syncs are off (Unsynced).
func Sync(f *os.File) error {
	if noSync.Load() {
		return nil
	}
	return f.Sync()
}
