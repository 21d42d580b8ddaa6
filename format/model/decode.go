package model

import (
	"fmt"
	"time"

	"github.com/sesstool/sesstool/session"
)

// The functions below invert encode.go. What the dump does not hold (Raw,
// layout-private data) stays empty, and Origin is Name: a session read from
// a dump is foreign to every layout's writer.

func decodeMeta(j *metaJSON) (*session.Meta, error) {
	m := &session.Meta{
		ID: j.ID, Title: j.Title, Cwd: j.Cwd, Version: j.Version,
		Provider: j.Provider, Model: j.Model, ThinkingLevel: j.ThinkingLevel,
		Children: j.Children, Extra: decodeExtras(j.Extras), Source: session.Source{Origin: Name},
	}
	var err error
	if m.Created, err = decodeTime(j.Created); err != nil {
		return nil, fmt.Errorf("created: %w", err)
	}
	if m.Updated, err = decodeTime(j.Updated); err != nil {
		return nil, fmt.Errorf("updated: %w", err)
	}
	if p := j.Parent; p != nil {
		m.Parent = &session.Parent{SessionID: p.SessionID, Path: p.Path, EntryID: p.EntryID, Summary: p.Summary, Run: p.Run, ID: p.ID, Extra: decodeExtras(p.Extras)}
		if m.Parent.Time, err = decodeTime(p.Time); err != nil {
			return nil, fmt.Errorf("parent time: %w", err)
		}
	}
	for i, cp := range j.Checkpoints {
		c := session.Checkpoint{ID: cp.ID, MessageID: cp.MessageID}
		if c.Created, err = decodeTime(cp.Created); err != nil {
			return nil, fmt.Errorf("checkpoint %d: %w", i, err)
		}
		for _, f := range cp.Files {
			c.Files = append(c.Files, session.FileState{Path: f.Path, Exists: f.Exists, Hash: f.Hash, Size: f.Size, Blob: f.Blob})
		}
		m.Checkpoints = append(m.Checkpoints, c)
	}
	return m, nil
}

// decodeTime reads "at" back; a time with only "raw" had no instant the
// source's reader could parse, and keeps none.
func decodeTime(j *timeJSON) (session.Time, error) {
	if j == nil {
		return session.Time{}, nil
	}
	t := session.Time{Raw: j.Raw}
	if j.At != "" {
		at, err := time.Parse(time.RFC3339Nano, j.At)
		if err != nil {
			return t, fmt.Errorf("%q is not an RFC 3339 time", j.At)
		}
		t.T = at
	}
	return t, nil
}

func decodeEntry(j *entryJSON) (*session.Entry, error) {
	e := &session.Entry{
		Kind: session.Kind(j.Kind), Type: j.Type, ID: j.ID, ParentID: j.Parent, Sidechain: j.Sidechain,
		ThinkingLevel: j.ThinkingLevel, Title: j.Title, Extra: decodeExtras(j.Extras), Source: session.Source{Origin: Name},
	}
	var err error
	if e.Time, err = decodeTime(j.Time); err != nil {
		return nil, fmt.Errorf("time: %w", err)
	}
	if e.Message, err = decodeMessage(j.Message); err != nil {
		return nil, fmt.Errorf("message: %w", err)
	}
	if c := j.Compaction; c != nil {
		e.Compaction = &session.Compaction{
			Summary: c.Summary, FirstKeptID: c.FirstKeptID, TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter,
			Details: c.Details, FromHook: c.FromHook, BranchID: c.BranchID,
		}
	}
	if b := j.BranchSummary; b != nil {
		e.BranchSummary = &session.BranchSummary{FromID: b.FromID, Summary: b.Summary, Details: b.Details, FromHook: b.FromHook}
	}
	if l := j.Label; l != nil {
		e.Label = &session.Label{TargetID: l.TargetID, Label: l.Label}
	}
	if m := j.ModelChange; m != nil {
		e.ModelChange = &session.ModelChange{Provider: m.Provider, ModelID: m.ModelID, Role: m.Role, Combined: m.Combined}
	}
	if c := j.Custom; c != nil {
		e.Custom = &session.Custom{CustomType: c.CustomType, Data: c.Data}
	}
	if s := j.Subagent; s != nil {
		e.Subagent = &session.Subagent{
			ID: s.ID, ParentToolCallID: s.ParentToolCallID, AgentType: s.AgentType, AgentName: s.AgentName,
			Result: s.Result, IsError: s.IsError,
		}
	}
	return e, nil
}

func decodeMessage(j *messageJSON) (*session.Message, error) {
	if j == nil {
		return nil, nil
	}
	m := &session.Message{
		Role: session.Role(j.Role), SourceRole: j.SourceRole,
		ContentIsString: j.ContentIsString, ContentIsNull: j.ContentIsNull,
		API: j.API, Provider: j.Provider, Model: j.Model, StopReason: j.StopReason, Error: j.Error,
		ToolCallID: j.ToolCallID, ToolName: j.ToolName, IsError: j.IsError,
		CustomType: j.CustomType, Display: j.Display, Details: j.Details,
		AuthorID: j.AuthorID, AuthorName: j.AuthorName, TokenCount: j.TokenCount,
		Extra: decodeExtras(j.Extras),
	}
	var err error
	if m.Time, err = decodeTime(j.Time); err != nil {
		return nil, err
	}
	for _, b := range j.Content {
		m.Content = append(m.Content, session.Block{
			Type: session.BlockType(b.Type), Text: b.Text, Signature: b.Signature, Redacted: b.Redacted,
			MimeType: b.MimeType, Data: b.Data, URL: b.URL, Filename: b.Filename,
			ToolCallID: b.ToolCallID, ToolName: b.ToolName, Arguments: b.Arguments, IsError: b.IsError,
			Extra: decodeExtras(b.Extras),
		})
	}
	if u := j.Usage; u != nil {
		m.Usage = &session.Usage{
			Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite,
			Reasoning: u.Reasoning, Total: u.Total, Extra: decodeExtras(u.Extras),
		}
		if c := u.Cost; c != nil {
			m.Usage.Cost = &session.Cost{
				Input: c.Input, Output: c.Output, CacheRead: c.CacheRead, CacheWrite: c.CacheWrite,
				Total: c.Total, Extra: decodeExtras(c.Extras),
			}
		}
	}
	if x := j.Exec; x != nil {
		m.Exec = &session.Exec{
			Command: x.Command, Output: x.Output, ExitCode: x.ExitCode,
			Cancelled: x.Cancelled, Truncated: x.Truncated, FullOutputPath: x.FullOutputPath,
		}
	}
	return m, nil
}

func decodeExtras(x extrasJSON) session.Extras {
	if len(x) == 0 {
		return nil
	}
	out := make(session.Extras, len(x))
	for i, f := range x {
		out[i] = session.Field{Key: f.Key, Value: f.Value}
	}
	return out
}
