package benchdata

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// ocID spells an OpenCode id: prefix, 12 hex digits of the low 48 bits of
// ms*4096+counter (bitwise NOT for descending ids), 14 base62 characters.
func ocID(prefix string, ms int64, counter int, descending bool) string {
	v := uint64(ms)*4096 + uint64(counter)
	if descending {
		v = ^v
	}
	v &= 1<<48 - 1
	tail := make([]byte, 14)
	x := uint64(counter)*2654435761 + uint64(ms)
	for i := range tail {
		tail[i] = base62[x%62]
		x = x/62 + uint64(i+7)*40503
	}
	return fmt.Sprintf("%s_%012x%s", prefix, v, tail)
}

// OpenCode writes a 1.x storage tree with one session under the global
// project holding msgs messages and parts parts, replicated from the
// messages and parts of the sample storage tree.
func OpenCode(sample, out string, msgs, parts int) error {
	tmplMsgs, tmplParts, err := loadOpenCodeSample(sample)
	if err != nil {
		return err
	}
	const t0 = int64(1795235000000)
	sid := ocID("ses", t0, 0, true)
	st := filepath.Join(out, "storage")
	session := map[string]any{"id": sid, "slug": "bench", "version": "1.1.34", "projectID": "global", "directory": "/bench",
		"title": "bench", "time": map[string]any{"created": t0, "updated": t0}}
	if err := writeJSON(filepath.Join(st, "session", "global", sid+".json"), session); err != nil {
		return err
	}
	perMsg := parts / msgs
	pc, lastUser := 0, ""
	for i := 0; i < msgs; i++ {
		ms := t0 + int64(i)*10
		m := clone(tmplMsgs[i%len(tmplMsgs)])
		mid := ocID("msg", ms, i, false)
		m["id"], m["sessionID"] = mid, sid
		setTime(m, ms)
		if m["role"] == "user" {
			lastUser = mid
		} else if lastUser != "" {
			m["parentID"] = lastUser
		} else {
			m["role"], m["parentID"] = "user", nil
			delete(m, "parentID")
			lastUser = mid
		}
		if err := writeJSON(filepath.Join(st, "message", sid, mid+".json"), m); err != nil {
			return err
		}
		for k := 0; k < perMsg; k++ {
			p := clone(tmplParts[pc%len(tmplParts)])
			pid := ocID("prt", ms, pc, false)
			p["id"], p["sessionID"], p["messageID"] = pid, sid, mid
			pc++
			if err := writeJSON(filepath.Join(st, "part", mid, pid+".json"), p); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(filepath.Join(st, "migration"), []byte("2"), 0o644)
}

func setTime(m map[string]any, ms int64) {
	t, _ := m["time"].(map[string]any)
	if t == nil {
		t = map[string]any{}
		m["time"] = t
	}
	t["created"] = ms
	if _, ok := t["completed"]; ok {
		t["completed"] = ms + 5
	}
}

// loadOpenCodeSample reads every message and every non-tool part of a
// storage tree (tool parts reference call ids we do not replicate).
func loadOpenCodeSample(root string) (msgs, parts []map[string]any, err error) {
	mfiles, _ := filepath.Glob(filepath.Join(root, "message", "*", "*.json"))
	pfiles, _ := filepath.Glob(filepath.Join(root, "part", "*", "*.json"))
	sort.Strings(mfiles)
	sort.Strings(pfiles)
	for _, f := range mfiles {
		m, err := readJSON(f)
		if err != nil {
			return nil, nil, err
		}
		msgs = append(msgs, m)
	}
	for _, f := range pfiles {
		p, err := readJSON(f)
		if err != nil {
			return nil, nil, err
		}
		if p["type"] == "text" || p["type"] == "reasoning" || p["type"] == "step-start" || p["type"] == "step-finish" {
			parts = append(parts, p)
		}
	}
	if len(msgs) == 0 || len(parts) == 0 {
		return nil, nil, fmt.Errorf("%s: no messages or parts found (want an OpenCode storage/ directory)", root)
	}
	return msgs, parts, nil
}

func readJSON(p string) (map[string]any, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var c map[string]any
	json.Unmarshal(b, &c)
	return c
}

func writeJSON(p string, v any) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}
