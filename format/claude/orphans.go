package claude

import "github.com/sesstool/sesstool/mapping"

// NoResult is the result written for a tool call of another layout that
// has none in the session: mapping answers it (Caps.CallsNeedResults),
// since the Anthropic API refuses a tool_use without its tool_result and
// Claude Code drops the message holding it.
const NoResult = mapping.NoResult
