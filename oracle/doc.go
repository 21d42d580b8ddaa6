// Package oracle holds the tests that run the real agents (Claude Code,
// Codex, OpenCode), offline against the mock model service
// (internal/testkit/mockmodel), as the definition of done: a session an
// agent writes is read right when sesstool's counts match what the agent
// did, and a session sesstool writes for an agent is right when the agent
// resumes it and sends the model the whole conversation. The package has
// no code of its own beyond these tests.
package oracle
