package opencode

import "github.com/sesstool/sesstool/format"

// SafeKey reports whether an id may become a file or directory name, by
// the rule every layout's validator applies (format.UnsafeID): no
// separators, parent references or control characters, UTF-8, at most 255
// bytes. OpenCode's own form of ids (mapping.IsOpenCodeID) is one of the
// forms package mapping restyles ids into.
func SafeKey(id string) bool { return format.UnsafeID(id) == "" }
