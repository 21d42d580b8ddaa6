package main

import (
	"context"

	"github.com/sesstool/sesstool/command"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/selection"
	"github.com/urfave/cli/v3"
)

// selectFlags choose sessions by what they record; every command that
// reads sessions through the pipeline takes them (docs/commands.md,
// "Choosing sessions").
func selectFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cwd", Usage: "only sessions recorded in directory `DIR` or under it (the project)"},
		&cli.StringFlag{Name: "since", Usage: "only sessions started on or after `DATE` (YYYY-MM-DD in the local time zone, or RFC 3339)"},
		&cli.StringFlag{Name: "until", Usage: "only sessions started on or before `DATE` (a YYYY-MM-DD includes that whole day)"},
		&cli.StringFlag{Name: "match", Usage: "only sessions whose title or a prompt holds `TEXT` (case-insensitive)"},
	}
}

// selectionOf reads the selection flags; a bad date is a usage error.
func selectionOf(c *cli.Command) (selection.Filter, error) {
	f, err := selection.New(c.String("cwd"), c.String("since"), c.String("until"), c.String("match"))
	if err != nil {
		return f, command.Usage("%v", err)
	}
	return f, nil
}

func listCmd(env *command.Env) *cli.Command {
	return sub("list", "one line per session: id, start, duration, project, messages, title", "[PATH...]",
		append([]cli.Flag{outputFlag(), formatFlag(registry.Names())}, selectFlags()...),
		func(_ context.Context, c *cli.Command) error {
			sel, err := selectionOf(c)
			if err != nil {
				return err
			}
			return command.List(env, command.ListOptions{Output: c.String("output"), Format: c.String("format"), Select: sel, Paths: c.Args().Slice()})
		})
}
