package mockmodel

// Script is the conversation the mock plays, the same in every protocol:
// the first reply to a prompt thinks (where the protocol can), says a
// little and calls the shell tool once; the reply to that tool's result
// is a final text. A request whose conversation ends in a tool result
// gets Final; any other gets the tool call. So a fresh session and a
// resumed one are both played to the end, and the test knows exactly
// what the agent did: one prompt, two assistant replies, one tool call.
type Script struct {
	Thinking string // reasoning text, where the protocol has it
	Preface  string // the text before the tool call
	Command  string // the shell command the tool call runs
	Final    string // the text after the tool result

	// Usage reported on each reply.
	InputTokens, OutputTokens int
}

// Default is the script the agents' tests play.
var Default = Script{
	Thinking:     "The user wants a greeting printed; a shell command will do.",
	Preface:      "I will run a command.",
	Command:      "echo mock-tool-output",
	Final:        "The command printed mock-tool-output. Done.",
	InputTokens:  100,
	OutputTokens: 20,
}

// Step is which reply of the script a request gets.
type Step int

const (
	StepToolCall Step = iota // the reply that thinks and calls the tool
	StepFinal                // the reply after the tool's result
)
