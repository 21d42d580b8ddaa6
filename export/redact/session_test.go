package redact

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// token is a secret planted in every string of a session.
const token = "ghp_0123456789abcdefghijABCDEFGHIJklmnop"

// notShown are the model's strings an exporter shows as identity or
// machine values, never as text a secret could be pasted into; every other
// string must be redacted. A new field of the model fails this test until it
// is redacted or listed here.
var notShown = map[string]bool{
	"Meta.ID": true, "Meta.Version": true, "Meta.Provider": true, "Meta.Model": true, "Meta.ThinkingLevel": true,
	"Meta.Created.Raw": true, "Meta.Updated.Raw": true, "Meta.Children": true, "Meta.Origin": true,
	"Meta.Parent.SessionID": true, "Meta.Parent.EntryID": true, "Meta.Parent.ID": true, "Meta.Parent.Time.Raw": true,
	"Meta.Checkpoints.ID": true, "Meta.Checkpoints.MessageID": true, "Meta.Checkpoints.Created.Raw": true,
	"Meta.Checkpoints.Files.Path": true, "Meta.Checkpoints.Files.Hash": true, "Meta.Checkpoints.Files.Blob": true,
	"Entries.Kind": true, "Entries.Type": true, "Entries.ID": true, "Entries.ParentID": true, "Entries.Time.Raw": true,
	"Entries.Sidechain": true, "Entries.Origin": true,
	"Entries.Message.Role": true, "Entries.Message.SourceRole": true, "Entries.Message.Time.Raw": true,
	"Entries.Message.API": true, "Entries.Message.Provider": true, "Entries.Message.Model": true, "Entries.Message.StopReason": true,
	"Entries.Message.ToolCallID": true, "Entries.Message.ToolName": true, "Entries.Message.CustomType": true,
	"Entries.Message.AuthorID": true, "Entries.Message.AuthorName": true,
	"Entries.Message.Content.Type": true, "Entries.Message.Content.Signature": true, "Entries.Message.Content.MimeType": true,
	"Entries.Message.Content.Data": true, "Entries.Message.Content.ToolCallID": true, "Entries.Message.Content.ToolName": true,
	"Entries.Message.Content.Origin": true,
	"Entries.Compaction.FirstKeptID": true, "Entries.Compaction.BranchID": true, "Entries.BranchSummary.FromID": true,
	"Entries.Label.TargetID": true, "Entries.ModelChange.Provider": true, "Entries.ModelChange.ModelID": true,
	"Entries.ModelChange.Role": true, "Entries.Custom.CustomType": true, "Entries.ThinkingLevel": true,
	"Entries.Subagent.ID": true, "Entries.Subagent.ParentToolCallID": true, "Entries.Subagent.AgentType": true, "Entries.Subagent.AgentName": true,
}

// TestSessionEveryString plants a token in every string of the model and
// checks that Session masks it everywhere an exporter shows text: so
// --redact is the same for every layout (each is read into this model) and
// for every exporter (each renders from it).
func TestSessionEveryString(t *testing.T) {
	s := &session.Session{Entries: []*session.Entry{{}}}
	fill(reflect.ValueOf(s).Elem(), "")
	r := mustNew(t)
	r.Session(s)
	var left []string
	leaks(reflect.ValueOf(s).Elem(), "", &left)
	sort.Strings(left)
	for _, p := range left {
		t.Errorf("%s still holds the secret after redaction", p)
	}
	if r.Count == 0 {
		t.Error("nothing was masked")
	}
}

var rawType = reflect.TypeOf(json.RawMessage(nil))

// fill sets every string of v to a text holding token, every raw JSON value
// to an object holding it, and gives every pointer and slice one element.
func fill(v reflect.Value, path string) {
	switch {
	case v.Type() == rawType:
		v.Set(reflect.ValueOf(json.RawMessage(`{"note":"token ` + token + ` here"}`)))
		return
	case v.Type().Name() == "Extras":
		return // members the model has no slot for: no exporter shows them
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("see " + token + " there")
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fill(v.Elem(), path)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // source bytes
		}
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			fill(v.Index(i), path)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && f.Type.Kind() != reflect.Interface {
				fill(v.Field(i), join(path, f))
			}
		}
	}
}

func leaks(v reflect.Value, path string, out *[]string) {
	switch {
	case v.Type() == rawType:
		if strings.Contains(string(v.Bytes()), token) {
			*out = append(*out, path)
		}
		return
	case v.Type().Name() == "Extras":
		return
	}
	switch v.Kind() {
	case reflect.String:
		if strings.Contains(v.String(), token) && !notShown[path] {
			*out = append(*out, path)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			leaks(v.Elem(), path, out)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if strings.Contains(string(v.Bytes()), token) {
				*out = append(*out, path)
			}
			return
		}
		for i := range v.Len() {
			leaks(v.Index(i), path, out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && f.Type.Kind() != reflect.Interface {
				leaks(v.Field(i), join(path, f), out)
			}
		}
	}
}

// join names a field by its path; embedded structs (Source) add no step.
func join(path string, f reflect.StructField) string {
	if f.Anonymous {
		return path
	}
	if path == "" {
		return f.Name
	}
	return path + "." + f.Name
}
