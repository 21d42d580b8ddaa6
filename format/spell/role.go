package spell

import (
	"strconv"

	"github.com/sesstool/sesstool/session"
)

// AsUser is how a message of a role the target has no slot for enters it
// as a user message, as pi's convertToLlm hands it to the model: a shell
// or Python run the user started becomes the text "Ran `command`" with its
// output in a fence; a custom or summary message keeps its content.
func AsUser(m *session.Message) *session.Message {
	c := *m
	c.Role, c.SourceRole = session.RoleUser, ""
	if x := m.Exec; x != nil && len(m.Content) == 0 {
		text := "Ran `" + x.Command + "`\n```\n" + x.Output + "\n```"
		switch {
		case x.Cancelled:
			text += "\n\n(command cancelled)"
		case x.ExitCode != nil && *x.ExitCode != 0:
			text += "\n\nCommand exited with code " + strconv.FormatInt(*x.ExitCode, 10)
		}
		c.Content, c.ContentIsString = []session.Block{{Type: session.BlockText, Text: text}}, false
	}
	return &c
}
