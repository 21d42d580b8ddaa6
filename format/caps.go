package format

import (
	"slices"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// Caps is what a layout can hold, declared as data in the layout's caps.go,
// as pandoc's writers declare their extensions. Conversion reads it twice:
// mapping.Adapt reshapes a session from another layout to fit (active path,
// dropped entry kinds, role fallbacks) and counts what does not, and the
// loss each writer reports is checked against it. A writer then spells only
// its own layout.
type Caps struct {
	// Display is how loss reasons name the layout ("pi", "OpenCode"); ""
	// for its --format name.
	Display string
	// Own are the origins (session.Source.Origin) this layout writes back as
	// they were read; a session of one of them is passed through untouched,
	// so same-layout conversion stays byte-identical.
	Own []string
	// Linear layouts keep one line of conversation: a session from another
	// layout is written along its active path, its branches flattened.
	Linear bool
	// MessageLinks: the layout's tree links messages to messages only, and
	// hangs tool results, compactions and other entries off the message
	// before them (ash). Its reader copies it into each session it reads
	// (session.Meta.MessageLinks), and the conversation tree
	// (session/convtree) reads the parent ids by that rule.
	MessageLinks bool
	// Sidechains: the layout keeps sub-agent runs and side files.
	Sidechains bool
	// SidechainsInHome: the layout keeps sub-agent runs only as files of
	// their own beside the session in its program's home (Gemini CLI's
	// chats/<parentSessionId>/<sessionId>.jsonl). A linear target keeps
	// each run whole besides its active path; its writer, which knows
	// where it writes, counts them lost in a single file.
	SidechainsInHome bool
	// RunsHomeOnly marks the declaration InFile gives such a layout for a
	// single file: the runs are lost there, and the reason says where the
	// layout keeps them.
	RunsHomeOnly bool
	// Checkpoints: the layout keeps file snapshots.
	Checkpoints bool
	// Kinds are the entry kinds it holds (messages always);
	// KindsConverted those it writes as something of its own (counted as
	// converted by its writer). Every other kind is dropped.
	Kinds, KindsConverted []session.Kind
	// Roles are the message roles it holds; Fallback says what becomes of
	// the others ("" keeps them as read), Alias of the roles it holds under
	// another name.
	Roles    []session.Role
	Fallback Fallback
	Alias    map[session.Role]session.Role
	// ToolCallOn are the roles whose messages may carry tool calls.
	ToolCallOn []session.Role
	// Blocks are the content block types it holds; BlocksConverted those
	// its writer turns into something it holds (ash's tool_result blocks
	// into tool messages, a file with data into an image). Every other
	// block is dropped.
	Blocks, BlocksConverted []session.BlockType
	// Signatures are the block types whose provider signature it keeps
	// (pi's textSignature, thinkingSignature with the redaction flag, and
	// Gemini's thoughtSignature on a tool call); on every other block the
	// signature is dropped and counted.
	Signatures []session.BlockType
	// ThinkingOwnOnly: thinking is written only from its own sessions;
	// another layout's is left out and counted (Claude Code: the API takes
	// back only the thinking Anthropic signed).
	ThinkingOwnOnly bool
	// CallsNeedResults: a tool call of another layout with no result gets
	// one saying so, counted as converted (Claude Code: the API refuses a
	// tool_use without its tool_result).
	CallsNeedResults bool
	// ModelRequired: every message names a model (OpenCode continues a
	// session only with one its config offers), so a session that names
	// none anywhere is written with one, counted once as the session's
	// model converted.
	ModelRequired bool
	// ImagesOn are the roles whose messages may carry images; nil for all.
	ImagesOn []session.Role
	// LastText: an assistant message keeps only its last text block.
	LastText bool
	// Usage, Cost, IsError, StopReason, MessageModel, Title, SessionModel:
	// per-message and per-session data it keeps.
	Usage, Cost, IsError, StopReason, MessageModel bool
	// CacheWriteAsInput: its token counts have no cache-write count, and
	// count cache writes as input (Codex, as OpenAI's usage does).
	CacheWriteAsInput   bool
	Title, SessionModel bool
	// The rest of a message's data it keeps: the reasoning token count,
	// the provider beside the model, the API, the error text beside the
	// stop reason, the tool's details, the author, the token count.
	// mapping.Adapt counts every one of these, and each field above, that
	// a session from another layout has and the layout does not keep.
	ReasoningTokens, MessageProvider, MessageAPI, MessageError bool
	MessageDetails, MessageAuthor, MessageTokens               bool
	// The rest of a session's data it keeps: the model's provider and the
	// thinking level.
	Provider, ThinkingLevel bool
	// FixedProvider is the provider the layout names for every session from
	// another layout (ash's header names the chat: cli); a session's own
	// provider is lost unless it is this one.
	FixedProvider string
	// TitleInHome: the title is kept only in the index of the layout's
	// home (Codex's session_index.jsonl), so its writer, which knows
	// where it writes, counts the title lost elsewhere.
	TitleInHome bool
	// What the adaptation drops by a rule of the layout's declaring, and
	// the layout's own words for it (mapping/adapt_*.go apply these).
	//
	// TitleHomeOnly marks the declaration InFile gives a layout whose
	// title lives only in its home's index (TitleInHome): a single file
	// loses the title, of the layout's own sessions too.
	TitleHomeOnly bool
	// LossReasons are the layout's own words for a loss, by kind, where a
	// rule's generic reason would say less (where it keeps what is lost);
	// a kind it does not name gets the rule's reason.
	LossReasons map[loss.Kind]string
	// CompactionSummaryOnly: a compaction keeps its summary only; its
	// first kept entry, token count after, details and branch are dropped
	// (Codex's compacted line).
	CompactionSummaryOnly bool
	// ResultsNeedCall: a tool result is kept only after the message that
	// made its call (Codex's function_call_output names a function_call
	// written before it); one whose call is not kept is dropped.
	ResultsNeedCall bool
	// KindsDropped are kinds the adaptation otherwise leaves to the writer
	// (compactions, extension messages) that the layout neither holds nor
	// converts: entries of them are dropped and counted before it writes.
	KindsDropped []session.Kind

	// IDs and Times name the layout's own spelling of entry ids and times,
	// which a writer derives for a session from another layout.
	IDs   IDStyle
	Times TimeStyle
}

// Fallback is what becomes of a message whose role a layout lacks.
type Fallback string

const (
	FallbackDrop Fallback = "drop" // not written
	FallbackUser Fallback = "user" // a user message, as pi hands it to the model (mapping.AsUser)
)

// IDStyle is a layout's spelling of ids, declared as data: package mapping
// derives every id a session from another layout is written with from it
// (mapping.IDs), so no writer restyles ids with code of its own.
type IDStyle struct {
	// Form is the form of entry ids. The session id is a UUID in the
	// hex8 and uuid forms; a layout with a form of its own names it here
	// and mints its ids with Minter.
	Form IDForm
	// Minter is the layout's own form of ids, declared beside its caps
	// when the form is none of the shared ones (OpenCode's ascending
	// msg_/prt_ and descending ses_ ids); nil for the shared forms.
	Minter IDMinter
	// Seed is hashed before a foreign session id the layout derives its
	// own from ("tree:"), so each layout's derived ids are its own.
	Seed string
	// Fresh: every id of another layout is derived anew, even one that
	// already has the form (ash: the session id too, as an entry id is).
	Fresh bool
}

// IDForm is a layout's form of entry ids.
type IDForm string

const (
	IDHex8 IDForm = "hex8" // 8 hex digits (pi, flat)
	IDUUID IDForm = "uuid" // a UUIDv4 (ash, goat, Claude Code, Codex)
)

// IDMinter is a layout's own form of ids (IDStyle.Minter), so that no
// layout's form is spelled outside its folder: package mapping asks it
// whether a source id may be kept and what a session from another layout
// is called. An entry id it does not keep is derived as a UUID, which the
// layout's writer renumbers in its own form as it writes.
type IDMinter interface {
	// Keeps reports whether id has the layout's form of entry ids.
	Keeps(id string) bool
	// Session is the id a session read with meta m is written under: its
	// own when it has the form, else one derived from it; at is the
	// session's first time in Unix milliseconds.
	Session(m *session.Meta, at int64) string
}

// TimeStyle is a layout's spelling of entry times.
type TimeStyle string

const (
	TimeISO     TimeStyle = "iso-millis"   // 2006-01-02T15:04:05.000Z
	TimeRFC3339 TimeStyle = "rfc3339"      // seconds, Z
	TimeNano    TimeStyle = "rfc3339-nano" // nanoseconds
	TimePython  TimeStyle = "python"       // isoformat, +00:00
	TimeMillis  TimeStyle = "unix-millis"
)

// Capable is implemented by layouts that declare what they hold. A layout
// without it (the model dump) gets every session as it was read.
type Capable interface {
	Caps() Caps
}

// CapsOf is f's declaration, and whether it has one.
func CapsOf(f Format) (Caps, bool) {
	c, ok := f.(Capable)
	if !ok {
		return Caps{}, false
	}
	return c.Caps(), true
}

// InFile is the declaration of a single file of a layout that keeps
// sub-agent runs only in its home (SidechainsInHome): no runs, and no
// entries that start or end one; and of one that keeps the title only in
// its home (TitleInHome): no title (TitleHomeOnly). c itself for any
// other layout. convert
// adapts a session by it unless it writes into the layout's home.
func (c Caps) InFile() Caps {
	c.TitleHomeOnly = c.TitleInHome
	if !c.SidechainsInHome {
		return c
	}
	c.SidechainsInHome, c.RunsHomeOnly = false, true
	c.KindsConverted = slices.DeleteFunc(slices.Clone(c.KindsConverted), func(k session.Kind) bool {
		return k == session.KindSubagent || k == session.KindSubagentEnd
	})
	return c
}

// Owns reports whether a session of origin is this layout's own.
func (c Caps) Owns(origin string) bool { return slices.Contains(c.Own, origin) }

// HoldsKind reports whether entries of kind k are kept.
func (c Caps) HoldsKind(k session.Kind) bool {
	return k == session.KindMessage || slices.Contains(c.Kinds, k)
}

// ConvertsKind reports whether entries of kind k are written as something
// else the layout has.
func (c Caps) ConvertsKind(k session.Kind) bool { return slices.Contains(c.KindsConverted, k) }

// HoldsRole reports whether messages of role r are kept as such (or under
// the role Alias gives).
func (c Caps) HoldsRole(r session.Role) bool {
	_, alias := c.Alias[r]
	return alias || slices.Contains(c.Roles, r)
}

// HoldsBlock reports whether blocks of type t are kept.
func (c Caps) HoldsBlock(t session.BlockType) bool { return slices.Contains(c.Blocks, t) }

// KeepsSignature reports whether a block of type t keeps its provider
// signature.
func (c Caps) KeepsSignature(t session.BlockType) bool { return slices.Contains(c.Signatures, t) }

// ConvertsBlock reports whether blocks of type t are written as something
// else the layout has.
func (c Caps) ConvertsBlock(t session.BlockType) bool { return slices.Contains(c.BlocksConverted, t) }

// CallsOn reports whether a message of role r may carry tool calls.
func (c Caps) CallsOn(r session.Role) bool { return slices.Contains(c.ToolCallOn, r) }

// ImagesFor reports whether a message of role r may carry images.
func (c Caps) ImagesFor(r session.Role) bool {
	return c.HoldsBlock(session.BlockImage) && (c.ImagesOn == nil || slices.Contains(c.ImagesOn, r))
}

// Called is how loss reasons name the layout whose --format name is name.
func (c Caps) Called(name string) string {
	if c.Display != "" {
		return c.Display
	}
	return name
}
