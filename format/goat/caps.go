package goat

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// caps is what goat holds: one line of chat messages (an assistant turn's
// last text block, user images) and file snapshots; its transcript is its
// own side file.
var caps = format.Caps{
	Own:             []string{Name},
	Linear:          true,
	Checkpoints:     true,
	KindsConverted:  []session.Kind{session.KindSessionInfo}, // the last title, as leaf_title
	Roles:           []session.Role{session.RoleUser, session.RoleAssistant, session.RoleSystem, session.RoleTool},
	Alias:           map[session.Role]session.Role{session.RoleDeveloper: session.RoleSystem},
	Fallback:        format.FallbackDrop,
	ToolCallOn:      []session.Role{session.RoleAssistant},
	Blocks:          []session.BlockType{session.BlockText, session.BlockImage, session.BlockToolCall},
	BlocksConverted: []session.BlockType{session.BlockToolResult},
	ImagesOn:        []session.Role{session.RoleUser},
	LastText:        true,
	Title:           true, SessionModel: true,
	IDs: format.IDStyle{Form: format.IDUUID, Seed: "goat:"}, Times: format.TimeNano,
}

// Caps declares what the layout holds.
func (Format) Caps() format.Caps { return caps }

// OptTruncate is the option that lets the writer cut a message whose line
// goat could not read (MaxLine) to fit, counted as lost, instead of
// refusing it (convert --truncate-messages).
const OptTruncate = "truncate-messages"

// traits is how sesstool handles goat's layout: its writer takes the cut
// of a line too long for goat.
var traits = format.Traits{
	Options: []format.Option{{Name: OptTruncate, Switch: true,
		Usage: "cut a message longer than the target can read (goat: a 10 MiB line) to fit, counted as lost, instead of refusing it"}},
}

// Traits declares how the layout is handled.
func (Format) Traits() format.Traits { return traits }
