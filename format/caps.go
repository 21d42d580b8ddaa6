package format

import (
	"slices"

	"github.com/sesstool/sesstool/loss"

	"github.com/sesstool/sesstool/session"
)

// Caps is what a layout can hold, declared as data in the layout's caps.go,
// as pandoc's writers declare their extensions. Conversion reads it twice:
// convert.Adapt reshapes a session from another layout to fit (active path,
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
	// each run whole besides its active path; a single file holds none
	// (InFile), and convert.Adapt counts them lost there.
	SidechainsInHome bool
	// RunsHomeOnly marks the declaration InFile gives such a layout for a
	// single file: the runs are lost there, and the reason says where the
	// layout keeps them.
	RunsHomeOnly bool
	// Checkpoints: the layout keeps file snapshots.
	Checkpoints bool
	// Kinds are the entry kinds it holds (messages always);
	// KindsConverted those it writes as something of its own (counted as
	// converted: by convert.Adapt with the reason ConvertedWhy gives, else by
	// its writer). Every other kind is dropped.
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
	// DefaultModel is that model, from the layout's environment (OpenCode's
	// config), declared beside its caps; convert gives it to every message
	// of a session that names no model on the path it writes.
	DefaultModel DefaultModeler
	// ImagesOn are the roles whose messages may carry images; nil for all.
	ImagesOn []session.Role
	// LastText: an assistant message keeps only its last text block; the
	// adaptation drops the others, counted (adapt_lasttext.go).
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
	// convert.Adapt counts every one of these, and each field above, that
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
	// What a layout cannot hold that its writer once dropped and counted
	// itself, declared so that the adaptation (mapping/adapt_*.go) drops
	// and counts it, with the reason given here ("" for none of it: the
	// layout keeps it).
	//   - ResultsTextOnly: a tool result keeps only its text; its other
	//     blocks are dropped (ash's tool_result line has one output string).
	//   - ResultsNeedCall: a tool result, a tool message or a tool_result
	//     block, whose call is in no message kept before it (of a role
	//     that carries calls, ToolCallOn) is dropped (ash's reader drops
	//     such a result, and its validator refuses it; Codex's
	//     function_call_output names a function_call written before it).
	//   - RunsNeedCall: a sub-agent run that no tool call started (Claude
	//     Code's warm-up and compaction agents) is dropped whole, its
	//     marker, entries and end each counted (ash ties a run to the
	//     tool call that started it).
	ResultsTextOnly, ResultsNeedCall, RunsNeedCall string
	//   - RunsNeedKeptCall: a sub-agent run whose starting tool call is not
	//     kept before it (a call off the active path) is dropped, its
	//     entries counted as loss.Sidechain (Copilot CLI's
	//     subagent.started names the call in the log that started it).
	RunsNeedKeptCall string
	//   - CompactionConverted: a compaction is written as something of the
	//     layout's own (OpenCode's summary message), counted converted.
	//   - FirstKeptMoved: the layout names no first kept entry; read back,
	//     the message before the compaction is kept, so a compaction whose
	//     first kept entry is another is counted moved.
	CompactionConverted, FirstKeptMoved string
	//   - FirstKeptNamed: the layout's compaction must name a first kept
	//     entry; one that names none, after an entry, keeps the entry
	//     before it (a tool result: its call's message), which its writer
	//     names, counted moved (pi).
	FirstKeptNamed string
	//   - MessageTimeAsEntry, MessageTimeLeftOut: a message's own time
	//     (session.Message.Time) is kept only after 1970 (pi's timestamp,
	//     Unix milliseconds); an earlier one takes its entry's time as the
	//     writer spells it (spell.Clock), counted converted with
	//     MessageTimeAsEntry, or, when that is not after 1970 either, is
	//     left out of the message, counted dropped with MessageTimeLeftOut.
	MessageTimeAsEntry, MessageTimeLeftOut string
	//   - TimesAfter1970: the layout keeps times after 1970 only (Unix
	//     milliseconds); an earlier one is left unset, which its writer
	//     spells as the time before it (at the start, the session's first),
	//     counted converted.
	//   - TimesForward: the layout orders messages by their time; a message
	//     stamped before the one it follows takes that one's time, counted
	//     converted.
	TimesAfter1970, TimesForward string

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
	// CompactionLacks are the compaction fields the layout has no slot
	// for, named by the kind their loss is counted as: loss.FirstKept,
	// CompactionTokensAfter, CompactionDetails and CompactionBranch (Codex's
	// compacted line keeps the summary only; flat's compaction entry has
	// a first kept entry and none of the others). Each that a compaction
	// sets is dropped and counted, once the compaction is placed
	// (convert/adapt_compaction.go).
	CompactionLacks []loss.Kind
	// FirstKeptEarlier: the layout's compaction names its first kept
	// entry, which must be one written before it (flat): a compaction
	// naming any other is given none, which its writer spells as the
	// entry before it (a tool result's call's message), counted moved;
	// one with nothing written before it is dropped, counted
	// (convert/adapt_compaction.go).
	FirstKeptEarlier bool
	// KindsDropped are kinds the adaptation otherwise leaves to the writer
	// (compactions) that the layout neither holds nor converts: entries of
	// them are dropped and counted before it writes. Extension messages
	// are declared by CustomMessages, never here.
	KindsDropped []session.Kind
	// CustomMessages says what becomes of an extension message
	// (KindCustomMessage) of another layout: kept as the message it
	// carries, written as a user message, or dropped with a reason; the
	// one rule for them (adapt_custom.go).
	CustomMessages CustomRule

	// IDs and Times name the layout's own spelling of entry ids and times,
	// which a writer derives for a session from another layout.
	IDs   IDStyle
	Times TimeStyle

	// What becomes of the entries and links a writer used to place and
	// count itself, so that the adaptation (package convert, adapt_*.go)
	// makes and counts every such loss before the writer sees the session.
	// Each rule applies only where a layout declares it.
	//
	// ConvertedWhy is the reason an entry of a kind the layout converts
	// (KindsConverted) is counted converted with (adapt_converted.go): a
	// compaction as loss.Compaction, any other as its entry kind.
	ConvertedWhy map[session.Kind]string
	// CompactionAsUser: another layout's compaction is written as the user
	// message of its summary; the adaptation gives the entry that message,
	// its kind kept so the writer can mark it as a summary
	// (adapt_compaction.go).
	CompactionAsUser bool
	// NoLineWhy is why an entry left to the writer that it has no line
	// for is dropped: a message without a message, an extension message
	// without one where the layout writes each as its message
	// (CustomMessages: CustomAsMessage), a
	// compaction without its summary or one the layout neither holds nor
	// converts (adapt_lines.go).
	NoLineWhy string
	// NoParentWhy and NoChildrenWhy, when set, are why a session's link to
	// its parent session and those to its child sessions are lost: the
	// layout's file names none (adapt_links.go).
	NoParentWhy, NoChildrenWhy string
	// NoParentPathWhy, when set, is why the path of a fork's parent
	// session file is lost: the layout links a parent by its id only
	// (adapt_links.go).
	NoParentPathWhy string
	// ThinkingOwnOnlyWhy is the reason ThinkingOwnOnly counts another
	// layout's thinking dropped with; a message left with nothing is
	// dropped whole (adapt_thinking.go).
	ThinkingOwnOnlyWhy string
	// CallsNeedResultsWhy is the reason CallsNeedResults counts a call
	// answered with; CallsWaitInTurn: the calls of a turn wait for their
	// results across the assistant messages that follow (which join the
	// turn), and any other message ends it (Gemini CLI's record of a
	// reply), where otherwise the next message that is not a tool result
	// does (the Messages API's next user turn) (adapt_results.go).
	CallsNeedResultsWhy string
	CallsWaitInTurn     bool
	// TurnJoinsWhy, when set, is the reason an assistant message among the
	// results of a turn's calls is counted with as it is joined to the
	// turn, whose results then follow it (Qwen Code answers a turn's calls
	// right after it) (adapt_join.go).
	TurnJoinsWhy string

	// Losses its writer once counted, declared as rules package convert
	// applies to a session from another layout (mapping/adapt_<rule>.go);
	// an unset rule does not apply. Each names the loss's action and the
	// reason the report gives.

	// Stops: stop reasons are spelled from spell.Stop's neutral set; an
	// assistant message's reason no layout documents is written as "stop"
	// and counted (mapping/adapt_stop.go).
	Stops *Rule
	// Images and files (blocks of type image or file) as the layout's
	// image block holds them (mapping/adapt_images.go): ImagesInline, only
	// inline base64 data, so a block without data is dropped; ImageMIME,
	// with a MIME type, read from the data when the source gives none, so
	// data that is not an image is dropped; ImageFileName, without a file
	// name, which is dropped.
	ImagesInline, ImageMIME, ImageFileName *Rule
	// ImagesLinked: with ImagesInline, the image block holds a URL too
	// (Codex's input_image takes a data: URL or a link), so only a block
	// with neither data nor a URL is dropped. FilesImagesOnly: a file
	// whose MIME type names something other than an image is dropped
	// (Codex's messages hold images, not other files).
	ImagesLinked    bool
	FilesImagesOnly *Rule
	// BlocksOn are the block types a message of a role holds where the
	// layout holds fewer on that role than it holds at all (Codex's
	// assistant replies hold text and tool calls, its user messages text,
	// images and tool results): any other block on such a message is
	// dropped, counted with the role's reason (convert/adapt_roleblocks.go).
	// A role it does not name holds what the layout holds.
	BlocksOn map[session.Role]RoleBlocks
	// ToolCallsOnlyOn: a tool call in a message whose role ToolCallOn
	// does not name is dropped (mapping/adapt_calls.go).
	ToolCallsOnlyOn *Rule
	// ResultsOnlyOn: a tool_result block (one the layout holds or
	// converts) in a message whose role ResultBlocksOn does not name is
	// dropped (adapt_calls.go: goat writes a user message's results as
	// tool messages, and has no such content part elsewhere).
	ResultsOnlyOn  *Rule
	ResultBlocksOn []session.Role
	// ParentNeedsPath: a link to the parent session is kept only with the
	// parent's file path and the entry it forks at (flat's branch line);
	// one without is dropped (mapping/adapt_parent.go).
	ParentNeedsPath *Rule
	// ParentNeedsID: a link to the parent session is kept only with the
	// parent's session id (Codex's forked_from_id); one without is
	// dropped. ParentPathDropped: the parent's file path is dropped from
	// the link (Codex links a fork by id only) (convert/adapt_parent.go).
	ParentNeedsID, ParentPathDropped *Rule
	// ForkPointKept: the layout names a fork's fork point by a message it
	// keeps (goat's fork_point_uuid), or by the fork entry's own id where
	// that id has the layout's form (IDs: the parent converted alongside
	// keeps it); a link whose fork entry is neither is dropped, counted
	// once the session has been read (adapt_parent.go).
	ForkPointKept *Rule
	// SnapshotsNeedContent: a file snapshot keeps an existing file's
	// content only as a blob named by its SHA-256 (goat's
	// checkpoints/<id>/files/<hash>); the content of one the source gives
	// no blob or no SHA-256 for is dropped, counted as declared
	// (adapt_snapshots.go).
	SnapshotsNeedContent *Rule
	// MessageLimit, when set, is the most bytes the layout's program reads
	// a message in (goat: a messages.jsonl line, MaxLine); its writer
	// refuses a longer one. CutLong, which convert.For sets from the
	// user's choice (Limit.CutWith: convert --truncate-messages), lets the adaptation cut
	// such a message to fit instead, counted (adapt_long.go).
	MessageLimit *Limit
	CutLong      bool
	// ParentInBatch: a link to the parent session is kept only when the
	// parent is converted in the same run (WriteOptions.Batch, when known);
	// one to a parent left behind is dropped, of the layout's own sessions
	// too (OpenCode's store lists root sessions only and reaches a child
	// through its parent) (convert/adapt_parent.go).
	ParentInBatch *Rule
	// ResultsInCall: a tool result is written into the part of its call,
	// found anywhere in the session (OpenCode's tool part): a result whose
	// call id no call of a message written names, and any but the first
	// result of a call, have no place, counted dropped once the session has
	// been given whole (convert/adapt_given.go).
	ResultsInCall *Rule
}

// RoleBlocks are the block types a message of one role holds (Caps.BlocksOn),
// and the reason the others are dropped with.
type RoleBlocks struct {
	Types []session.BlockType
	Why   string
}

// Rule is how a declared rule counts what it changes: the action (dropped,
// converted, ...) and the reason the loss report gives.
type Rule struct {
	Action loss.Action
	Why    string
}

// CustomRule is what becomes of an extension message (KindCustomMessage)
// of another layout, by a layout's declaration (Caps.CustomMessages). It
// applies after what the message holds is counted.
type CustomRule struct {
	// As is what it is written as; the zero value leaves it to the writer
	// as it was read.
	As CustomAs
	// Why is the reason the report gives for one written as a user
	// message (counted converted, as its role) or dropped (counted as an
	// extension message, loss.CustomMessage).
	Why string
	// KeepResults: a tool's result carried as an extension message (of
	// the tool role) is kept as the result it is, never dropped (ash's
	// tool_result line).
	KeepResults bool
	// AsEntry: one dropped is counted as the entry it is
	// ("custom_message-entry"), where the layout's words say it has no
	// line of that kind (Codex), rather than as an extension message.
	AsEntry bool
}

// CustomAs is what an extension message of another layout is written as.
type CustomAs string

const (
	// CustomAsMessage: the message it carries; one carrying none has no
	// line (Caps.NoLineWhy).
	CustomAsMessage CustomAs = "message"
	// CustomAsUser: one of a role the layout lacks is a user message,
	// counted converted (OpenCode); one of a role it holds, its message.
	CustomAsUser CustomAs = "user"
	// CustomDropped: it is not written, counted dropped (ash, Codex,
	// Gemini CLI).
	CustomDropped CustomAs = "dropped"
)

// Limit is the most bytes a layout's program reads a message in
// (Caps.MessageLimit), declared with the layout's own measure of a message
// and its words for a cut.
type Limit struct {
	Max int
	// Size is the bytes of the longest line (or record) the layout's
	// writer makes of message entry e, e given as the adaptation gives it.
	Size func(e *session.Entry) int
	// Mark ends a text cut to fit; Why is the reason the cut is counted
	// with (loss.LongMessage, dropped).
	Mark, Why string
	// CutWith is the layout's own switch (Traits.Options) by which the
	// user lets a longer message be cut to fit (goat's
	// truncate-messages); convert.For sets Caps.CutLong from it.
	CutWith string
}

// Fallback is what becomes of a message whose role a layout lacks.
type Fallback string

const (
	FallbackDrop Fallback = "drop" // not written
	FallbackUser Fallback = "user" // a user message, as pi hands it to the model (spell.AsUser)
)

// IDStyle is a layout's spelling of ids, declared as data: package spell
// derives every id a session from another layout is written with from it
// (spell.IDs), so no writer restyles ids with code of its own.
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
// layout's form is spelled outside its folder: package spell asks it
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

// Distincter is implemented by an IDMinter whose layout insists on the
// shape of its session ids beyond a UUID (OpenCode's ses_ ids, sorted by
// their time part): Distinct derives the n-th distinct id from id, an id
// the minter Keeps, in that shape, for a second session of a run with the
// same id (convert.DistinctID). The same input gives the same id.
type Distincter interface {
	Distinct(id string, n int) string
}

// DefaultModeler names the model a layout that requires one on every
// message (Caps.ModelRequired) writes a session naming none with, as its
// environment gives it (OpenCode's configured default), and why, as the loss
// report counts the session's model converted.
type DefaultModeler interface {
	DefaultModel() (provider, model, why string)
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
