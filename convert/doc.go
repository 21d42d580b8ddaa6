// Package convert holds the decisions every conversion shares when a
// session that came from another layout is written: Adapt, reached only
// through For (convert's stage; tests and fuzzers through Write and
// WriteTo), reshapes it to what the target declares and counts what that
// loses, before the writer sees it. With package format/spell (how a
// writer spells ids, times and stop reasons in its declared style) it is
// the one place in the code where the cross-layout mapping rules live;
// docs/convert.md says the same for users. Writers keep only what is
// specific to their layout and never import this package.
//
// Capabilities. Each layout declares what it can hold (format.Caps, in its
// caps.go). Adapt reads that declaration and does, once, between reader and
// writer, what follows from it alone: the active path for a linear target,
// side runs and file snapshots the target has no place for, entry kinds it
// does not hold (what hung from one hangs from its parent), roles it lacks
// (Alias, AsUser, or dropped), each counted as lost. A session of the
// target's own layout passes through untouched.
//
// Roles and content blocks. The model keeps tool calls as ToolCall blocks
// inside the assistant message and tool results as messages of RoleTool
// (pi, flat and goat store them that way). ash stores a call twice (a
// tool_use block in the assistant message and a separate tool_use entry)
// and a result as a tool_result entry, or as a tool_result block inside a
// user message; OpenCode stores both call and result in one tool part of
// the assistant message (the result is the part's state). Readers map all of
// these onto the model; writers map the model onto their own spelling and
// reattach results to their calls by tool call id.
//
// Ids. Each layout declares its form of ids as data (format.Caps.IDs,
// a format.IDStyle), and spell.IDs derives every id of a session from another
// layout from that declaration; no writer restyles ids itself. A source id
// already in the target's form and free is kept (never with a Fresh style,
// ash's); any other is derived in the target's form: 8 hex digits (tree,
// flat), a UUIDv4 shape (ash, goat, Claude Code, Codex). A layout with a
// form of its own declares a minter beside its caps (format.IDMinter:
// OpenCode's ascending msg_/prt_ and descending ses_ ids live in
// format/opencode), which says which ids it keeps and names the session. A
// session id is derived with the layout's seed (SessionID). Every derived
// id is a hash, never random, so the same input always gives the same
// bytes, and references (parent ids, first kept entry, a fork's parent
// session) go through the same map (IDs.Of), so they stay consistent
// across every file a layout writes.
//
// Timestamps. The model keeps the instant and the source spelling. A writer
// of the same layout writes the source spelling back; a writer of another
// layout spells the instant its own way: ISO 8601 UTC with milliseconds and
// Z (ISO: tree), RFC 3339 seconds (flat entries), RFC 3339 with nanoseconds
// (goat), Unix milliseconds (tree and flat messages, OpenCode),
// Python's isoformat with +00:00 (PyTime: ash). An entry without a time
// takes the previous entry's.
//
// Usage and cost. A message's Usage is what that message cost. OpenCode
// overwrites an assistant message's tokens at each step, so its reader sums
// the message's step-finish parts; its cost is the info's cost. Layouts
// without per-message usage (goat, ash) count it as lost.
//
// Compactions, branches, forks and child sessions. A linear layout (flat,
// goat, OpenCode) writes the active path: root to the leaf, the last entry
// of the main conversation in source order, as pi, ash and flat resume
// there. The conversation tree, its leaf, active path and branches have one
// definition, in package session/convtree (PathIndex; Conversation and
// ActivePath in memory), which info and export use too; in it the tool
// results and compactions ash hangs off a message follow that message, so
// they are on its line (the session says so: Meta.MessageLinks). The
// entries left out are counted, and so are the branches and sub-agent
// entries (Adapt). Writing ash into pi re-chains those attachments by the
// same rule (convtree.Chain). A
// compaction is kept where the target has one (tree, flat, ash; an OpenCode
// summary message); its first kept entry is rewritten to the new id, or set
// to the entry before the summary when the target must name one. A fork
// keeps its parent session id (and fork point) where the target can say it;
// child sessions are sessions of their own, converted one by one.
//
// Roles the target lacks become user messages where it can hold them
// (AsUser: pi's shell runs as the text pi gives the model), and stop
// reasons map onto five neutral values (Stop).
//
// Images and files. Images are base64 with a MIME type in the model. OpenCode
// keeps images and files as file parts with a data: URL; flat and tree keep
// inline images only; goat keeps user images; ash keeps neither. A file
// referenced by URL only is lost where the target has no URL slot.
//
// Loss. What a target cannot hold is counted with a loss.Counter, by the
// kinds of package loss (one typed list for every writer), so the loss
// report reads the same whatever the target.
package convert
