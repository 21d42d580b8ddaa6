// Package fastschema is a fast accept path for the JSON Schemas sesstool
// ships. It compiles the subset of Draft 2020-12 those schemas use into a
// validator that works on the raw bytes of a JSON text, in one pass with no
// decoding, and answers only "valid" or "not sure".
//
// "Not sure" covers every invalid text and anything the fast path does not
// model exactly (escaped keys, unusual numbers, deep nesting); the caller
// then runs the full validator (jsonschema/v6), whose messages users see.
// So a wrong "not sure" only costs time, and the one thing this package must
// never do is accept a text the full validator would reject: the tests check
// that against jsonschema/v6 on every sample and on mutations of them.
//
// A schema with a keyword this package does not compile (one the full
// validator gives a meaning) does not compile here, and its callers keep
// using the full validator alone; a keyword the full validator does not
// know either is an annotation and is skipped.
package fastschema
