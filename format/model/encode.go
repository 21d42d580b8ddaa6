package model

import (
	"time"

	"github.com/sesstool/sesstool/session"
)

// The functions below map model values onto the dump's types. They copy
// every slot but Raw (source bytes), and reuse the model's slices of raw
// JSON: encoding/json compacts those, so a value read from a pretty-printed
// file still takes one line.

func encodeMeta(m *session.Meta) *metaLine {
	j := &metaJSON{
		ID: m.ID, Title: m.Title, Cwd: m.Cwd,
		Created: encodeTime(m.Created), Updated: encodeTime(m.Updated),
		Version: m.Version, Parent: encodeParent(m.Parent),
		Provider: m.Provider, Model: m.Model, ThinkingLevel: m.ThinkingLevel,
		Children: m.Children, Extras: encodeExtras(m.Extra),
	}
	for _, cp := range m.Checkpoints {
		j.Checkpoints = append(j.Checkpoints, encodeCheckpoint(cp))
	}
	if m.Origin != "" || m.Unmodelled() > 0 {
		j.Source = &sourceJSON{Layout: m.Origin, Unmodelled: m.Unmodelled()}
	}
	return &metaLine{Model: Version, Meta: j}
}

func encodeParent(p *session.Parent) *parentJSON {
	if p == nil {
		return nil
	}
	return &parentJSON{
		SessionID: p.SessionID, Path: p.Path, EntryID: p.EntryID, Summary: p.Summary, Run: p.Run,
		ID: p.ID, Time: encodeTime(p.Time), Extras: encodeExtras(p.Extra),
	}
}

func encodeCheckpoint(cp session.Checkpoint) checkpointJSON {
	j := checkpointJSON{ID: cp.ID, MessageID: cp.MessageID, Created: encodeTime(cp.Created)}
	for _, f := range cp.Files {
		j.Files = append(j.Files, fileStateJSON{Path: f.Path, Exists: f.Exists, Hash: f.Hash, Size: f.Size, Blob: f.Blob})
	}
	return j
}

// encodeTime spells the instant in UTC so that the same instant read with
// different offsets dumps the same; Raw keeps the source's spelling.
func encodeTime(t session.Time) *timeJSON {
	if t.IsZero() {
		return nil
	}
	j := &timeJSON{Raw: t.Raw}
	if !t.T.IsZero() {
		j.At = t.T.UTC().Format(time.RFC3339Nano)
	}
	return j
}

// encodeEntry maps one entry; metaOrigin is the session's layout, which an
// entry's source names only when it differs.
func encodeEntry(e *session.Entry, metaOrigin string) *entryJSON {
	j := &entryJSON{
		Kind: string(e.Kind), Type: e.Type, ID: e.ID, Parent: e.ParentID,
		Time: encodeTime(e.Time), Sidechain: e.Sidechain,
		Message: encodeMessage(e.Message), ThinkingLevel: e.ThinkingLevel, Title: e.Title,
		Extras: encodeExtras(e.Extra),
	}
	if c := e.Compaction; c != nil {
		j.Compaction = &compactionJSON{
			Summary: c.Summary, FirstKeptID: c.FirstKeptID, TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter,
			Details: c.Details, FromHook: c.FromHook, BranchID: c.BranchID,
		}
	}
	if b := e.BranchSummary; b != nil {
		j.BranchSummary = &branchSummaryJSON{FromID: b.FromID, Summary: b.Summary, Details: b.Details, FromHook: b.FromHook}
	}
	if l := e.Label; l != nil {
		j.Label = &labelJSON{TargetID: l.TargetID, Label: l.Label}
	}
	if m := e.ModelChange; m != nil {
		j.ModelChange = &modelChangeJSON{Provider: m.Provider, ModelID: m.ModelID, Role: m.Role, Combined: m.Combined}
	}
	if c := e.Custom; c != nil {
		j.Custom = &customJSON{CustomType: c.CustomType, Data: c.Data}
	}
	if s := e.Subagent; s != nil {
		j.Subagent = &subagentJSON{
			ID: s.ID, ParentToolCallID: s.ParentToolCallID, AgentType: s.AgentType, AgentName: s.AgentName,
			Result: s.Result, IsError: s.IsError,
		}
	}
	if e.Line != 0 || (e.Origin != "" && e.Origin != metaOrigin) || e.Unmodelled() > 0 {
		j.Source = &sourceJSON{Line: e.Line, Unmodelled: e.Unmodelled()}
		if e.Origin != metaOrigin {
			j.Source.Layout = e.Origin
		}
	}
	return j
}

func encodeMessage(m *session.Message) *messageJSON {
	if m == nil {
		return nil
	}
	j := &messageJSON{
		Role: string(m.Role), SourceRole: m.SourceRole, Content: make([]blockJSON, 0, len(m.Content)),
		ContentIsString: m.ContentIsString, ContentIsNull: m.ContentIsNull, Time: encodeTime(m.Time),
		API: m.API, Provider: m.Provider, Model: m.Model, Usage: encodeUsage(m.Usage),
		StopReason: m.StopReason, Error: m.Error,
		ToolCallID: m.ToolCallID, ToolName: m.ToolName, IsError: m.IsError,
		CustomType: m.CustomType, Display: m.Display, Details: m.Details,
		AuthorID: m.AuthorID, AuthorName: m.AuthorName, TokenCount: m.TokenCount,
		Extras: encodeExtras(m.Extra),
	}
	for i := range m.Content {
		b := &m.Content[i]
		bj := blockJSON{
			Type: string(b.Type), Text: b.Text, Signature: b.Signature, Redacted: b.Redacted,
			MimeType: b.MimeType, Data: b.Data, URL: b.URL, Filename: b.Filename,
			ToolCallID: b.ToolCallID, ToolName: b.ToolName, Arguments: b.Arguments, IsError: b.IsError,
			Extras: encodeExtras(b.Extra),
		}
		if n := b.Unmodelled(); n > 0 {
			bj.Source = &sourceJSON{Unmodelled: n} // a block's layout and line are its entry's
		}
		j.Content = append(j.Content, bj)
	}
	if x := m.Exec; x != nil {
		j.Exec = &execJSON{
			Command: x.Command, Output: x.Output, ExitCode: x.ExitCode,
			Cancelled: x.Cancelled, Truncated: x.Truncated, FullOutputPath: x.FullOutputPath,
		}
	}
	return j
}

func encodeUsage(u *session.Usage) *usageJSON {
	if u == nil {
		return nil
	}
	j := &usageJSON{
		Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite,
		Reasoning: u.Reasoning, Total: u.Total, Extras: encodeExtras(u.Extra),
	}
	if c := u.Cost; c != nil {
		j.Cost = &costJSON{
			Input: c.Input, Output: c.Output, CacheRead: c.CacheRead, CacheWrite: c.CacheWrite,
			Total: c.Total, Extras: encodeExtras(c.Extra),
		}
	}
	return j
}

func encodeExtras(x session.Extras) extrasJSON {
	if len(x) == 0 {
		return nil
	}
	out := make(extrasJSON, len(x))
	for i, f := range x {
		out[i] = fieldJSON{Key: f.Key, Value: f.Value}
		if len(f.Value) == 0 {
			out[i].Value = nil // written as null, as an unset raw slot is everywhere else
		}
	}
	return out
}
