package html

import (
	"bytes"
	"testing"

	mdexport "github.com/sesstool/sesstool/export/markdown"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// TestMissingPayloads renders entries whose kind-specific field is missing,
// and messages with odd content: a renderer must not panic on any of them.
func TestMissingPayloads(t *testing.T) {
	kinds := []session.Kind{session.KindMessage, session.KindCustomMessage, session.KindCompaction, session.KindBranchSummary,
		session.KindLabel, session.KindModelChange, session.KindThinkingLevel, session.KindSessionInfo, session.KindCustom,
		session.KindSubagent, session.KindSubagentEnd, session.KindOther, "made-up"}
	s := &session.Session{}
	parent := ""
	for i, k := range kinds {
		id := string(rune('a' + i))
		s.Entries = append(s.Entries, &session.Entry{Kind: k, Type: string(k), ID: id, ParentID: parent})
		parent = id
	}
	s.Entries = append(s.Entries,
		&session.Entry{Kind: session.KindMessage, ID: "m1", ParentID: parent, Message: &session.Message{Role: session.RoleBash}},
		&session.Entry{Kind: session.KindMessage, ID: "m2", ParentID: "m1", Message: &session.Message{Role: "alien", Content: []session.Block{
			{Type: session.BlockImage, MimeType: "image/svg+xml", Data: "PHN2Zz4="}, {Type: session.BlockImage, MimeType: "image/png", Data: "not base64 \" onerror=x"},
			{Type: session.BlockToolCall, ToolName: "edit", Arguments: []byte(`not json`)}, {Type: "mystery"}}}},
		&session.Entry{Kind: session.KindMessage, ID: "m3", ParentID: "m2", Message: &session.Message{Role: session.RoleTool, ToolCallID: "zz"}},
		&session.Entry{Kind: session.KindMessage, ID: "m4", ParentID: "m3", Message: &session.Message{}},
	)
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, tr); err != nil {
		t.Fatal(err)
	}
	if err := mdexport.Write(&b, tr); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte("onerror=x")) {
		t.Error("bad image data reached the page unescaped")
	}
}
