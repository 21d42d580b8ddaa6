package codex

import (
	"errors"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Codex keeps a sub-agent's run in a rollout of its own, whose session_meta
// names the parent thread (source.subagent.thread_spawn.parent_thread_id).
// A rollout read from a Codex home brings its sub-agents' runs along, after
// its own entries, as ash's sub-agent runs are: a subagent entry, the run's
// entries (Sidechain: the sub-agent's thread id), a subagent_end entry. So
// an export shows them inside their parent; the Codex writer leaves them
// out (they are written from their own file).

// childIndex maps, per home, a thread id to its sub-agents' rollouts.
var childIndex sync.Map // home -> map[string][]child

type child struct {
	path, id, created string
}

// children lists the sub-agent rollouts of thread id in home, by start time.
func children(home, id string) []child {
	if home == "" {
		return nil
	}
	v, ok := childIndex.Load(home)
	if !ok {
		v, _ = childIndex.LoadOrStore(home, indexChildren(home))
	}
	return v.(map[string][]child)[id]
}

// indexChildren reads the first line of every rollout of home.
func indexChildren(home string) map[string][]child {
	out := map[string][]child{}
	files, err := rollouts(home)
	if err != nil {
		return out
	}
	for _, p := range files {
		v := gjson.ParseBytes(format.Head(p, 64<<10))
		parent := v.Get("payload.source.subagent.thread_spawn.parent_thread_id").String()
		if v.Get("type").String() != "session_meta" || parent == "" {
			continue
		}
		out[parent] = append(out[parent], child{path: p, id: v.Get("payload.id").String(), created: v.Get("payload.timestamp").String()})
	}
	for _, cs := range out {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].created < cs[j].created })
	}
	return out
}

// runs reads the sub-agent runs of the session, for after its last entry;
// last is that entry's id. A run that cannot be read is left out: it is
// validated, and its errors reported, as a rollout of its own.
func (r *reader) runs(last string) []*session.Entry {
	var out []*session.Entry
	for _, c := range children(homeOf(r.name), r.meta.ID) {
		fh, err := os.Open(c.path)
		if err != nil {
			continue
		}
		cr, err := newChildReader(c.path, fh)
		if err != nil {
			fh.Close()
			continue
		}
		run, err := subRun(cr, last)
		cr.Close()
		if err != nil {
			continue
		}
		if call := r.spawned[c.id]; call != "" {
			run[0].Subagent.ParentToolCallID = call
			run[len(run)-1].Subagent.ParentToolCallID = call
		}
		out = append(out, run...)
		last = run[len(run)-1].ID
	}
	return out
}

// newChildReader reads a sub-agent's rollout without its own sub-agents
// (each is a run of the thread that spawned it).
func newChildReader(name string, fh *os.File) (*reader, error) {
	sr, err := newReader(name, fh, fh)
	if err != nil {
		return nil, err
	}
	rd, ok := sr.(*reader)
	if !ok {
		sr.Close()
		return nil, errors.New("not a rollout")
	}
	rd.child = true
	return rd, nil
}

// subRun is one sub-agent's run: its start, its entries on a sidechain,
// its end with its last reply.
func subRun(cr *reader, parent string) ([]*session.Entry, error) {
	m := cr.meta
	src := gjson.GetBytes(m.Raw, "payload.source.subagent.thread_spawn")
	sub := &session.Subagent{ID: m.ID, AgentName: src.Get("agent_nickname").String(), AgentType: src.Get("agent_role").String()}
	start := &session.Entry{Kind: session.KindSubagent, Type: "subagent", ID: session.DerivedID(m.ID, 0, nil), ParentID: parent,
		Time: m.Created, Subagent: sub, Source: session.Source{Origin: Name}}
	out := []*session.Entry{start}
	result := ""
	var end session.Time
	for {
		e, err := cr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		e.Sidechain = m.ID
		if e.ParentID == "" {
			e.ParentID = start.ID
		}
		if e.Message != nil && e.Message.Role == session.RoleAssistant && e.Message.Text() != "" {
			result = e.Message.Text()
		}
		end = e.Time
		out = append(out, e)
	}
	fin := *sub
	fin.Result = result
	out = append(out, &session.Entry{Kind: session.KindSubagentEnd, Type: "subagent_end", ID: session.DerivedID(m.ID, -1, nil),
		ParentID: start.ID, Time: end, Subagent: &fin, Source: session.Source{Origin: Name}})
	return out, nil
}

// spawn notes the call that started a sub-agent: spawn_agent's output
// names the new thread ({"agent_id": …}), so an export shows the run
// inside that call.
func (r *reader) spawn(e *session.Entry) {
	m := e.Message
	if r.child || m == nil || m.Role != session.RoleTool || m.ToolCallID == "" {
		return
	}
	t := strings.TrimSpace(m.Text())
	if !strings.HasPrefix(t, "{") {
		return
	}
	id := gjson.Get(t, "agent_id").String()
	if id == "" {
		return
	}
	if r.spawned == nil {
		r.spawned = map[string]string{}
	}
	if _, ok := r.spawned[id]; !ok {
		r.spawned[id] = m.ToolCallID
	}
}
