// Package loss is the one list of what a writer can fail to carry into its
// layout, and the counter convert reports from. Every kind a writer counts
// is a Kind constant here, or built by one of the functions below from a
// name of the model (an entry kind, a role, a block type); docs/convert.md
// lists exactly these, and a test holds the two together.
package loss
