package mapping

import "github.com/sesstool/sesstool/format"

// Loss kinds and actions every writer uses for the same thing, so that the
// loss report reads alike whatever the target. Layout-specific kinds (a
// field only one layout has) are spelled by the writers.
const (
	KindBranch      = "branch"
	KindOffPath     = "off-path-entry"
	KindSidechain   = "sidechain-entry"
	KindThinking    = "thinking-block"
	KindImage       = "image-block"
	KindFile        = "file-block"
	KindUsage       = "usage"
	KindModel       = "message-model"
	KindStopReason  = "stop-reason"
	KindIsError     = "is-error"
	KindEntryField  = "entry-field"
	KindMessageFld  = "message-field"
	KindBlockField  = "block-field"
	KindSessionFld  = "session-field"
	KindCompaction  = "compaction"
	KindChild       = "child-session"
	KindSignature   = "thinking-signature"
	ActionDropped   = "dropped"
	ActionFlattened = "flattened"
	ActionConverted = "converted"
)

// Dropped counts n things of kind the layout has no slot for.
func Dropped(loss *format.Loss, kind, reason string, n int) {
	loss.Add(kind, ActionDropped, reason, n)
}
