// Command sesstool validates, migrates, converts and exports the session files
// that coding agents write. This file only wires flags to package command.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/sesstool/sesstool/command"
	"github.com/sesstool/sesstool/internal/cleanup"
	"github.com/sesstool/sesstool/registry"
	"github.com/urfave/cli/v3"
	"golang.org/x/term"
)

func main() { os.Exit(run(os.Args)) }

func run(args []string) int {
	cleanup.OnSignals() // temporary copies go with the run, on SIGTERM or SIGPIPE too
	defer profile()()
	env := &command.Env{
		Stdin:            os.Stdin,
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		StdinIsData:      stdinIsData,
		StderrIsTerminal: func() bool { return term.IsTerminal(int(os.Stderr.Fd())) },
		Color:            os.Getenv("NO_COLOR") == "" && term.IsTerminal(int(os.Stdout.Fd())),
		HoldInput:        liftMemoryLimit,
	}
	err := safeRun(app(env), args)
	if err != nil && err.Error() != "" {
		fmt.Fprintf(os.Stderr, "sesstool: %s\n", oneLine(err.Error()))
	}
	return command.Code(err)
}

// safeRun turns a panic into a one-line error: a panic is a bug on any input,
// and the user still gets a message and an exit code, never a stack trace.
func safeRun(root *cli.Command, args []string) (err error) {
	defer cleanup.RunAtExit() // what lives as long as the run: OpenCode's WAL copies
	defer func() {
		if r := recover(); r != nil {
			err = &command.ExitError{Code: command.ExitIO, Err: fmt.Errorf("internal error (please report): %v", r)}
		}
	}()
	return root.Run(context.Background(), args)
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ") }

// stdinIsData is true for a pipe or a redirected regular file, false for a
// terminal, /dev/null (a character device) or a closed descriptor.
func stdinIsData() bool {
	fi, err := os.Stdin.Stat()
	if err != nil {
		return false
	}
	m := fi.Mode()
	return m&os.ModeNamedPipe != 0 || m.IsRegular()
}

func app(env *command.Env) *cli.Command {
	return &cli.Command{
		Name:            "sesstool",
		Version:         version(),
		Usage:           "validate, migrate, convert and export coding-agent session files",
		Writer:          env.Stdout,
		ErrWriter:       env.Stderr,
		ExitErrHandler:  func(context.Context, *cli.Command, error) {},
		OnUsageError:    usageError,
		HideHelpCommand: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "no-color", Usage: "never colour output (also NO_COLOR)"},
		},
		Before: func(ctx context.Context, c *cli.Command) (context.Context, error) {
			if c.Bool("no-color") {
				env.Color = false
			}
			return ctx, nil
		},
		Action: func(_ context.Context, c *cli.Command) error {
			if c.Args().Len() > 0 {
				return unknownCommand(c, c.Args().First())
			}
			// sesstool alone asks what it can do: the help is the answer,
			// not a usage error.
			return cli.ShowRootCommandHelp(c)
		},
		Commands: []*cli.Command{
			validateCmd(env), migrateCmd(env), convertCmd(env), exportCmd(env),
			infoCmd(env), listCmd(env), schemaCmd(env), detectCmd(env),
		},
	}
}

func sub(name, usage, argsUsage string, flags []cli.Flag, action cli.ActionFunc) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, ArgsUsage: argsUsage, Flags: flags, Action: action, OnUsageError: usageError}
}

// formatFlag is the input layout flag. Every command that reads sessions
// takes it as --format and as --from (the same flag under two names): users
// of validate learn --format, users of convert learn --from, and either
// works everywhere.
func formatFlag(choices []string) cli.Flag {
	return &cli.StringFlag{Name: "format", Aliases: []string{"from"}, Value: "auto", Usage: "input layout: auto (detect), " + registry.Choices(choices)}
}

func outputFlag() cli.Flag {
	return &cli.StringFlag{Name: "output", Value: "text", Usage: "text or json"}
}

func validateCmd(env *command.Env) *cli.Command {
	return sub("validate", "check sessions against the schemas and the rules schemas can't express", "[PATH...]",
		append([]cli.Flag{
			formatFlag(registry.Names()), outputFlag(),
			&cli.IntFlag{Name: "max-errors", Usage: "stop listing errors after N (0: all)"},
			&cli.IntFlag{Name: "workers", Usage: "parallel workers (0: one per CPU)"},
		}, selectFlags()...),
		func(_ context.Context, c *cli.Command) error {
			sel, err := selectionOf(c)
			if err != nil {
				return err
			}
			return command.Validate(env, command.ValidateOptions{Select: sel,
				Format: c.String("format"), Output: c.String("output"),
				MaxErrors: c.Int("max-errors"), Workers: c.Int("workers"), Paths: c.Args().Slice(),
			})
		})
}

func migrateCmd(env *command.Env) *cli.Command {
	return sub("migrate", "upgrade sessions to a newer format version, in place and atomically", "[PATH...]",
		append([]cli.Flag{
			&cli.StringFlag{Name: "to", Usage: "target version (default: newest)"},
			formatFlag(registry.MigratorNames()),
			&cli.StringFlag{Name: "o", Usage: "write to FILE (- for standard output) instead of in place"},
			&cli.BoolFlag{Name: "in-place", Usage: "replace the input (the default)"},
			&cli.BoolFlag{Name: "no-backup", Usage: "do not keep FILE.bak"},
			&cli.BoolFlag{Name: "dry-run", Usage: "report what would change, write nothing"},
			&cli.BoolFlag{Name: "skip-invalid", Usage: "drop malformed lines instead of refusing the file (they are listed)"},
		}, selectFlags()...),
		func(_ context.Context, c *cli.Command) error {
			sel, err := selectionOf(c)
			if err != nil {
				return err
			}
			return command.Migrate(env, command.MigrateOptions{Select: sel,
				To: c.String("to"), Format: c.String("format"), Out: c.String("o"), InPlace: c.Bool("in-place"),
				NoBackup: c.Bool("no-backup"), DryRun: c.Bool("dry-run"), SkipInvalid: c.Bool("skip-invalid"),
				Paths: c.Args().Slice(),
			})
		})
}

func convertCmd(env *command.Env) *cli.Command {
	return sub("convert", "move sessions between layouts through the neutral model", "[PATH]",
		append([]cli.Flag{
			formatFlag(registry.Names()),
			&cli.StringFlag{Name: "to", Usage: "target layout: " + registry.Choices(registry.WriterNames())},
			&cli.StringFlag{Name: "o", Usage: "output file or directory (- for standard output)"},
			&cli.BoolFlag{Name: "force", Usage: "replace existing output"},
			&cli.StringFlag{Name: "session", Usage: "only the session with this id"},
			&cli.StringFlag{Name: "loss-report", Usage: "write what the target could not hold, as JSON, to FILE"},
			&cli.BoolFlag{Name: "strict", Usage: "refuse a conversion that would lose anything"},
		}, append(writeOptionFlags(), selectFlags()...)...),
		func(_ context.Context, c *cli.Command) error {
			sel, err := selectionOf(c)
			if err != nil {
				return err
			}
			return command.Convert(env, command.ConvertOptions{Select: sel,
				From: c.String("format"), To: c.String("to"), Out: c.String("o"), Force: c.Bool("force"),
				Session: c.String("session"), LossReport: c.String("loss-report"), Strict: c.Bool("strict"),
				Options: writeOptionValues(c), Paths: c.Args().Slice(),
			})
		})
}

func exportCmd(env *command.Env) *cli.Command {
	flags := func() []cli.Flag {
		return append([]cli.Flag{
			&cli.StringFlag{Name: "o", Usage: "output file or directory (- for standard output)"},
			&cli.StringFlag{Name: "leaf", Usage: "show the branch ending at this entry id"},
			&cli.BoolFlag{Name: "redact", Usage: "mask secrets (API keys, tokens, private keys)"},
			&cli.StringFlag{Name: "session", Usage: "only the session with this id"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing output file"},
			formatFlag(registry.Names()),
		}, selectFlags()...)
	}
	kind := func(ex registry.Exporter) *cli.Command {
		fs := flags()
		if ex.WithTools != nil {
			fs = append(fs, &cli.StringFlag{Name: "tools", Value: "full", Usage: "tool calls: full, summary (first lines of arguments and output) or none (one line each)"})
			fs = append(fs, &cli.BoolFlag{Name: "all-records", Usage: "also the records the agent keeps for itself (progress, snapshots, token counts, ...)"})
		}
		return sub(ex.Name, ex.Usage, "[PATH]", fs, func(_ context.Context, c *cli.Command) error {
			sel, err := selectionOf(c)
			if err != nil {
				return err
			}
			return command.Export(env, command.ExportOptions{Select: sel,
				Kind: ex.Name, Out: c.String("o"), Leaf: c.String("leaf"), Redact: c.Bool("redact"), Force: c.Bool("force"),
				Session: c.String("session"), From: c.String("format"), Tools: c.String("tools"), AllRecords: c.Bool("all-records"), Paths: c.Args().Slice(),
			})
		})
	}
	names := strings.Join(registry.ExporterNames(), "|")
	cmd := sub("export", "render a session for people to read ("+strings.Join(registry.ExporterNames(), ", ")+")", names+" [PATH]", nil,
		func(_ context.Context, c *cli.Command) error {
			_, err := registry.LookupExporter(c.Args().First())
			return command.Usage("%v", err)
		})
	for _, ex := range registry.Exporters {
		cmd.Commands = append(cmd.Commands, kind(ex))
	}
	return cmd
}

func infoCmd(env *command.Env) *cli.Command {
	return sub("info", "summarise sessions: format, version, entries, roles, branches, tokens, cost", "[PATH...]",
		append([]cli.Flag{outputFlag(), formatFlag(registry.Names())}, selectFlags()...),
		func(_ context.Context, c *cli.Command) error {
			sel, err := selectionOf(c)
			if err != nil {
				return err
			}
			return command.Info(env, command.InfoOptions{Select: sel, Output: c.String("output"), Format: c.String("format"), Paths: c.Args().Slice()})
		})
}

func schemaCmd(env *command.Env) *cli.Command {
	one := func(c *cli.Command, what string) (string, error) {
		if c.Args().Len() != 1 {
			return "", command.Usage("schema %s needs exactly one argument", what)
		}
		return c.Args().First(), nil
	}
	cmd := sub("schema", "list, show or dump the embedded JSON Schemas", "list | show NAME | dump DIR", nil,
		func(_ context.Context, c *cli.Command) error {
			if c.Args().Len() == 0 {
				return command.Usage("schema needs list, show NAME or dump DIR")
			}
			return command.Usage("unknown schema command %q", c.Args().First())
		})
	cmd.Commands = []*cli.Command{
		sub("list", "name every schema", "", nil, func(_ context.Context, c *cli.Command) error { return command.SchemaList(env) }),
		sub("show", "print one schema", "NAME", nil, func(_ context.Context, c *cli.Command) error {
			n, err := one(c, "show")
			if err != nil {
				return err
			}
			return command.SchemaShow(env, n)
		}),
		sub("dump", "write every schema under DIR", "DIR", nil, func(_ context.Context, c *cli.Command) error {
			d, err := one(c, "dump")
			if err != nil {
				return err
			}
			return command.SchemaDump(env, d)
		}),
	}
	return cmd
}

func detectCmd(env *command.Env) *cli.Command {
	return sub("detect", "say which layout each path holds", "PATH...", []cli.Flag{formatFlag(registry.Names())},
		func(_ context.Context, c *cli.Command) error {
			return command.Detect(env, command.DetectOptions{Format: c.String("format"), Paths: c.Args().Slice()})
		})
}
