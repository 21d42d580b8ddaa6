package session

// Meta is what a session says about itself, apart from its entries.
type Meta struct {
	ID      string
	Title   string
	Cwd     string
	Created Time
	Updated Time

	// Version is the source format's version ("3" for pi v3, "2" for ash).
	Version string

	// Parent links a forked or child session to where it came from.
	Parent *Parent

	// Defaults that some formats keep at session level (goat metadata model,
	// pi v1 header provider/modelId/thinkingLevel, ash provider).
	Provider      string
	Model         string
	ThinkingLevel string

	// Checkpoints are file snapshots (goat checkpoints/).
	Checkpoints []Checkpoint

	// Children are sessions spawned from this one (OpenCode subagent sessions),
	// by id; they are read as sessions of their own.
	Children []string

	// MessageLinks: the layout that read the session links messages to
	// messages only and hangs tool results, compactions and other entries
	// off the message before them (ash), as its caps declare
	// (format.Caps.MessageLinks). The conversation tree (session/convtree)
	// reads the parent ids by that rule; every other layout's are read as
	// they are.
	MessageLinks bool

	Extra  Extras // members of the source the model has no slot for
	Source        // Raw: the header line or metadata file, as read
}

// Parent is where a session was forked or spawned from.
type Parent struct {
	SessionID string // the parent's id, when known
	Path      string // the parent's file path, when the source stores a path
	EntryID   string // the fork point in the parent (flat fork_entry_id, goat fork_point_uuid)
	Summary   string // flat branch_summary
	// Run: the session is a sub-agent's run that its parent's reader also
	// brings into the parent, as a run (Gemini CLI's
	// chats/<parentSessionId>/<sessionId>.jsonl). Converted with its parent
	// into a layout that keeps runs inside their parent, it is written
	// there, not again as a session of its own.
	Run bool

	// The fork record itself, for layouts that store one (flat's branch line).
	ID    string // the record's own id
	Time  Time   // when the fork was made
	Extra Extras // its unknown members
	Raw   []byte // the record as read, for a same-format writer
}

// Checkpoint is a snapshot of files taken at one point of the session.
type Checkpoint struct {
	ID        string
	MessageID string // the user message it was taken at
	Created   Time
	Files     []FileState
	Raw       []byte // manifest as read
}

// FileState is one file in a checkpoint.
type FileState struct {
	Path   string
	Exists bool
	Hash   string // lowercase hex SHA-256
	Size   int64
	// Blob locates the content on disk (goat files/<hash>); "" when absent.
	Blob string
}
