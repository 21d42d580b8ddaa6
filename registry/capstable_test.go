package registry

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// capsTable renders the declarations of the named layouts as one Markdown
// table, a column per layout; docs/convert.md carries it, and a test keeps
// the two equal.
func capsTable(names []string, caps []format.Caps) string {
	var b strings.Builder
	b.WriteString("| | " + strings.Join(names, " | ") + " |\n|---|" + strings.Repeat("---|", len(names)) + "\n")
	row := func(what string, cell func(format.Caps) string) {
		b.WriteString("| " + what + " |")
		for _, c := range caps {
			b.WriteString(" " + cell(c) + " |")
		}
		b.WriteString("\n")
	}
	row("shape", func(c format.Caps) string { return pick(c.Linear, "linear (active path)", "tree") })
	row("sub-agent runs, side files", func(c format.Caps) string {
		return pick(c.SidechainsInHome, "sub-agent runs, in its home only", yes(c.Sidechains))
	})
	row("file snapshots", func(c format.Caps) string { return yes(c.Checkpoints) })
	row("entry kinds besides messages", func(c format.Caps) string { return words(c.Kinds) })
	row("entry kinds written as its own", func(c format.Caps) string { return words(c.KindsConverted) })
	row("roles", func(c format.Caps) string { return words(c.Roles) })
	row("roles under another name", func(c format.Caps) string { return aliases(c.Alias) })
	row("other roles", func(c format.Caps) string { return pick(c.Fallback == "", "kept", string(c.Fallback)) })
	row("tool calls in", func(c format.Caps) string { return words(c.ToolCallOn) })
	row("content blocks", func(c format.Caps) string { return words(c.Blocks) })
	row("content blocks written as its own", func(c format.Caps) string { return words(c.BlocksConverted) })
	row("images in", func(c format.Caps) string {
		switch {
		case !c.HoldsBlock(session.BlockImage):
			return "–"
		case c.ImagesOn == nil:
			return "every role"
		}
		return words(c.ImagesOn)
	})
	row("signatures on blocks", func(c format.Caps) string {
		if c.ThinkingOwnOnly {
			return words(c.Signatures) + " (thinking from its own sessions only)"
		}
		return words(c.Signatures)
	})
	row("assistant text blocks", func(c format.Caps) string { return pick(c.LastText, "the last one", "all") })
	row("usage, cost", func(c format.Caps) string { return yes(c.Usage) + ", " + yes(c.Cost) })
	row("error flag, stop reason", func(c format.Caps) string { return yes(c.IsError) + ", " + yes(c.StopReason) })
	row("model per message", func(c format.Caps) string { return yes(c.MessageModel) })
	row("provider, API per message", func(c format.Caps) string { return yes(c.MessageProvider) + ", " + yes(c.MessageAPI) })
	row("error text, tool details", func(c format.Caps) string { return yes(c.MessageError) + ", " + yes(c.MessageDetails) })
	row("reasoning tokens, author, token count", func(c format.Caps) string {
		return yes(c.ReasoningTokens) + ", " + yes(c.MessageAuthor) + ", " + yes(c.MessageTokens)
	})
	row("title, session model", func(c format.Caps) string {
		return pick(c.TitleInHome, "in its home", yes(c.Title)) + ", " + yes(c.SessionModel)
	})
	row("session provider, thinking level", func(c format.Caps) string {
		p := yes(c.Provider)
		if c.FixedProvider != "" {
			p = "`" + c.FixedProvider + "` only"
		}
		return p + ", " + yes(c.ThinkingLevel)
	})
	row("entry ids", func(c format.Caps) string { return "`" + string(c.IDs.Form) + "`" })
	row("times", func(c format.Caps) string { return "`" + string(c.Times) + "`" })
	return b.String()
}

func pick(ok bool, a, b string) string {
	if ok {
		return a
	}
	return b
}

func yes(ok bool) string { return pick(ok, "yes", "no") }

func words[T ~string](xs []T) string {
	if len(xs) == 0 {
		return "–"
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + string(x) + "`"
	}
	return strings.Join(out, ", ")
}

func aliases(m map[session.Role]session.Role) string {
	if len(m) == 0 {
		return "–"
	}
	var out []string
	for from, to := range m {
		out = append(out, fmt.Sprintf("`%s` as `%s`", from, to))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
