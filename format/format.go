// Package format defines the one small interface every session layout
// implements (detect, list, read into the model, validate), the optional
// interfaces a layout adds when they apply to it (write, stream, default
// store, load, migrate, copy, file extension), and the options those calls
// share. What a layout declares as data sits beside them: what it holds
// (Caps) and how it is handled (Traits: holding a session, validating to
// the file's end, its own write options). Layouts live in sub-packages,
// one folder each with the same files (docs/adding-a-layout.md), and are
// listed once in package registry.
//
// As age declares its optional interfaces beside Recipient, the optional
// ones are declared here beside Format, and the registry and the pipeline
// find them by type assertion: a layout is never asked for what it did not
// declare, and no list outside registry names a layout.
package format

import (
	"errors"
	"io"

	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// Format is one session layout.
type Format interface {
	// Name is the canonical --format name; Aliases are accepted too.
	Name() string
	Aliases() []string
	// Detect reports whether path (a file or a directory) is a session, or a
	// store of sessions, in this layout, judging by content, never by name alone.
	Detect(path string) bool
	// Sessions lists the sessions at path: one for a session file or
	// directory, many for a store.
	Sessions(path string) ([]Ref, error)
	// Open streams one session into the model.
	Open(ref Ref) (session.Reader, error)
	// Validate checks everything at path and adds findings to rep. The error
	// is for I/O failures only; invalid content is findings.
	Validate(path string, rep *report.Report, opt ValidateOptions) error
}

// Writer is implemented by layouts sesstool can write (convert --to): every
// layout but one whose files only its own program can make.
type Writer interface {
	// Write writes one session. For a single-file layout out is the file to
	// create; for a directory layout it is the container directory the
	// session goes under. It returns the paths it created, the session's own
	// file or directory first (convert prints that one); a layout with a
	// file per message (OpenCode's tree) leaves those out.
	Write(r session.Reader, out string, opt WriteOptions) ([]string, error)
}

// Stream is implemented by single-file layouts, which also work as filters
// on standard input and output. A directory layout does not implement it.
type Stream interface {
	// DetectHead reports whether the first bytes of a file look like this layout.
	DetectHead(head []byte) bool
	// ValidateReader checks a session read from r; name is used in findings.
	ValidateReader(name string, r io.Reader, rep *report.Report, opt ValidateOptions) error
	// OpenReader streams a session from r.
	OpenReader(name string, r io.Reader) (session.Reader, error)
	// WriteTo writes one session to w.
	WriteTo(w io.Writer, r session.Reader, opt WriteOptions) error
}

// DefaultStorer is implemented by layouts whose program keeps its sessions
// in a conventional place on a user's machine; that store is read when no
// PATH is given (CLI.md). A layout with no such place (a dump, an export)
// does not implement it.
type DefaultStorer interface {
	// DefaultStore is the store's path, from the program's own environment
	// variables and defaults; it need not exist.
	DefaultStore() string
}

// Loader is implemented by layouts whose stores are costly to read twice
// (many small files): Load validates path into rep as Validate does, and
// returns the layout over what it read, whose Sessions and Open serve path
// without reading it again. Use the result only when rep has no errors.
type Loader interface {
	Load(path string, rep *report.Report, opt ValidateOptions) (Format, error)
}

// Migrator is implemented by layouts with versions sesstool can upgrade
// (tree JSONL 1 -> 2 -> 3, ash "1" -> "2"), in the layout's migrate.go.
type Migrator interface {
	// Versions lists the layout's versions, oldest first; the last is the newest.
	Versions() []string
	// Version reports the version of the session at path.
	Version(path string) (string, error)
	// Migrate rewrites the session at path to version to, as opt says. An
	// invalid input is refused with its findings in rep and left as it was.
	Migrate(path, to string, opt MigrateOptions) (MigrateResult, error)
}

// Copier is implemented by writers that write a session read by their own
// layout, which nothing has changed, as a copy of its source lines (blank
// lines left out) instead of encoding it. Verbatim reports whether WriteTo
// will do so for r: the output then validates exactly as the source does,
// so a caller that has validated the source need not validate the output.
type Copier interface {
	Verbatim(r session.Reader) bool
}

// Placer is implemented by single-file layouts whose program finds a
// session only at a path of its own under its home folder (Codex:
// sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl under $CODEX_HOME).
// When convert writes into a directory, that directory is such a home and
// each session goes to Place, a slash-separated path relative to it; an
// output named as a file stays that file.
type Placer interface {
	Place(m *session.Meta) string
}

// Indexer is implemented by Placer layouts whose program keeps, beside the
// sessions in its home, an index of what it knows of them that the session
// files do not hold (Codex: thread names in session_index.jsonl). After
// convert has committed sessions into a home, Index records them there;
// the writer, told by WriteOptions.Home, then counts as lost only what the
// index cannot hold.
type Indexer interface {
	Index(home string, sessions []*session.Meta) error
}

// Teed is implemented by single-file layouts whose validator can hand the
// lines it reads to a reader of the same file (ValidateOptions.Tee): a
// command that validates a session while it reads it (export html) then
// reads, splits and copies the file once instead of twice. OpenTeed
// returns a reader of ref that takes its lines from lines, exactly as if
// it read them itself; nothing but the validator of ref fills it.
type Teed interface {
	OpenTeed(ref Ref, lines *jsonl.Feed) (session.Reader, error)
}

// Extensioner is implemented by single-file layouts whose files do not end
// in .jsonl (an OpenCode export is .json); convert names its outputs with it.
type Extensioner interface {
	Ext() string
}

// Ref names one session inside a path.
type Ref struct {
	Path string // the session file or directory, or the store holding it
	ID   string // the session id ("" when Path alone names it)
	// Size, when set, is how many bytes of the file Path to read: its size
	// when the run found it (pipeline), so that every reader of the run
	// and its validation see the same lines, whatever an agent appends
	// meanwhile (OpenPrefix). 0 reads to the end.
	Size int64
}

// ValidateOptions tune validation.
type ValidateOptions struct {
	Workers int
	// Size is Ref.Size for the file validated: read no further.
	Size int64
	// Tee, for a Teed layout, receives the lines the validator reads, for
	// the reader OpenTeed returned. The validation engine ends it at the
	// end of the input; whoever runs the validation ends it again once
	// Validate returns (End keeps the first), so that a validation that
	// returned early never leaves the reader waiting (pipeline.Input.Check).
	Tee *jsonl.Feed
}

// WriteOptions tune writing. Each field is a fact of every write, which
// any writer may need; a choice that serves one layout is that layout's
// option (Traits.Options), carried in Options.
type WriteOptions struct {
	Force bool // replace existing files
	// Options are the values given to the target's own options
	// (Traits.Options), by name: OpenCode's "project", goat's
	// "truncate-messages". nil when none was given.
	Options OptionValues
	// Batch holds the source ids of every session written in the same run,
	// so a writer can tell whether a child's parent travels with it; nil
	// when unknown. It is a fact of the run, not a layout's choice: which
	// sessions are written together, for any layout that links a session
	// to its parent (OpenCode's parentID today).
	Batch map[string]bool
	// Reopen opens the session being written again, from its first entry.
	// convert.Adapt reads a session from another layout twice with it for a
	// linear target (ids and parent links to find the active path, then the
	// entries), so memory does not grow with the session; nil when the input
	// can be read only once, and the session is then held. convert adapts
	// before it calls the writer; a writer adapts what it is given again,
	// which is a no-op for an adapted session.
	Reopen func() (session.Reader, error)
	// Home is set when the session is written into its program's home at
	// its Placer path, and the layout's Indexer records it there after.
	// It is a fact of where the write goes, not a layout's choice: what a
	// layout keeps only in its home (Caps.TitleInHome, SidechainsInHome)
	// is kept there and counted lost in a lone file, for any such layout
	// (Codex's index, Copilot's workspace, Gemini's runs).
	Home bool
}

// ErrNothingToWrite is a writer's refusal of a session that has nothing its
// layout can hold (Claude Code writes no session file before its first
// line): a clear refusal instead of a file its own program would not read.
var ErrNothingToWrite = errors.New("nothing this layout can hold")

// ErrNoTime is a writer's refusal of a session that has no time at all
// (Codex's TypeScript-era documents) when its layout times every line:
// it never makes one up.
var ErrNoTime = errors.New("the session has no time, and this layout needs one")

// FileOnStdin is implemented by a directory layout one of whose sessions
// can be a single file, so that it comes on standard input as one: a
// Claude Code transcript without sub-agents. Standard input is spooled to
// a file of the name StdinFile gives and read as that session file.
type FileOnStdin interface {
	StdinFile() string
	// DetectOnStdin judges the first bytes of standard input: is it one
	// session file of this layout? (A pipe has no path to look around.)
	DetectOnStdin(head []byte) bool
}
