// Package migrate upgrades (and, where that is lossless, downgrades) tree
// JSONL sessions (pi / oh-my-pi) between versions 1, 2 and 3, doing exactly
// what pi's own migrateV1ToV2 and migrateV2ToV3 do, but deterministically and
// without re-encoding anything a step does not change.
//
// Every step works on the raw bytes of one line: the line is walked once
// (where its top-level members are), each step records its edits, and the
// edits are spliced into the line in one pass as it is written, so key
// order, unknown members, number spelling and string escapes of everything
// else stay byte-identical. Steps compose line by line, so the input is read
// once by the rewrite (and once by the validator, alongside it); memory
// stays flat in file size apart from a 32-bit id per entry, which
// firstKeptEntryIndex resolution needs.
package migrate
