// Package migrate upgrades (and, where that is lossless, downgrades) tree
// JSONL sessions (pi / oh-my-pi) between versions 1, 2 and 3, doing exactly
// what pi's own migrateV1ToV2 and migrateV2ToV3 do, but deterministically and
// without re-encoding anything a step does not change.
//
// Every step works on the raw bytes of one line: gjson finds what to change
// and the change is spliced into the line, so key order, unknown members,
// number spelling and string escapes of everything else stay byte-identical.
// Steps compose line by line, so a file is read once (plus one cheap pre-pass
// that only collects the ids already present) and memory stays flat in file
// size apart from one id per entry, which firstKeptEntryIndex resolution needs.
package migrate
