// Package pipeline is the input/output path every command shares, so the
// six commands cannot disagree about what they read or where they write:
//
//   - resolve: PATH arguments, the default store when none is given,
//     standard input (streamed, or spooled to one private file);
//   - walk: what layout each path holds, with one skip policy: every path
//     passed over is a Skip with a rule, a warning inside a store and an
//     error when the user named it;
//   - validate-or-load: an input is read only once it validates;
//   - outputs: -o as a file or a directory, names and collisions, a stage
//     next to the output, committed only when complete;
//   - memory: which runs stream and which hold a session.
//
// A command is the pipeline plus its verb.
package pipeline
