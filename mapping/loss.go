package mapping

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

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

// EntryKind is the loss kind of a whole entry a layout cannot hold:
// "model_change-entry", or for an entry the model has no kind for, its
// source type ("transcript:assistant-entry").
func EntryKind(e *session.Entry) string {
	if e.Kind == session.KindOther && e.Type != "" {
		return e.Type + "-entry"
	}
	return string(e.Kind) + "-entry"
}

// RoleKind is the loss kind of a message whose role a layout lacks
// ("bash-message"): converted to a user message (AsUser) or dropped.
func RoleKind(r session.Role) string { return string(r) + "-message" }
