// Package session is sesstool's neutral session model: the one shape every
// format reader produces and every format writer consumes, as pandoc's AST is
// for documents.
//
// It is designed against all five layouts (tree JSONL, flat JSONL, ash, OpenCode,
// goat), not one of them:
//
//   - Entries form a tree (ID, ParentID). Linear formats are a chain; pi and ash
//     v2 branch; OpenCode chains messages by time.
//   - Tool calls are ToolCall blocks inside an assistant Message; tool results
//     are separate Messages of RoleTool (pi, flat and goat store them so; ash's
//     tool_result entries and OpenCode's tool-part state are mapped onto it).
//   - Whatever a format has that the model has no slot for is kept in Extras, in
//     source order, and the raw source bytes of each entry are kept in Raw, so a
//     writer of the same format reproduces the input byte for byte (see jsonx.Merge).
//
// Sessions are streamed: a Reader yields the Meta first and then one Entry at a
// time, so a converter never needs the whole session in memory.
package session
