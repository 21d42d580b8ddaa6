//go:build !linux

package opencode

// syncTree makes a freshly written tree durable, a sync per file and
// directory.
func syncTree(root string, syncFiles func() error) error {
	return syncFiles()
}
