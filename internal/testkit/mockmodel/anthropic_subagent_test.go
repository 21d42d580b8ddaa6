package mockmodel

import "testing"

func TestAnthropicSubagentPlaysTheRun(t *testing.T) {
	const task = "Sub-agent task."
	s := Start(t, Default, AnthropicSubagent(task)...)
	tools := `"tools":[{"name":"Agent"},{"name":"Bash"}]`
	mainPrompt := `{"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"delegate"}]}`
	subPrompt := `{"role":"user","content":"` + task + `"}`
	agentCall := `{"role":"assistant","content":[{"type":"tool_use","id":"a1","name":"Agent","input":{}}]}`
	bashCall := `{"role":"assistant","content":[{"type":"tool_use","id":"b1","name":"Bash","input":{}}]}`
	result := func(id string) string {
		return `{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":"out"}]}`
	}
	note := `{"role":"user","content":"a notification"}`
	cases := []struct {
		name, body string
		stop       string
		tool       string // the tool the reply calls, "" for none
		text       string // the reply's last text
	}{
		{"main: calls the sub-agent", `{` + tools + `,"messages":[` + mainPrompt + `]}`, "tool_use", "Agent", ""},
		{"main: final after the result", `{"stream":true,` + tools + `,"messages":[` + mainPrompt + `,` + agentCall + `,` + result("a1") + `]}`, "end_turn", "", Default.Final},
		{"main: final after a later turn", `{` + tools + `,"messages":[` + mainPrompt + `,` + agentCall + `,` + result("a1") + `,` + note + `]}`, "end_turn", "", Default.Final},
		{"sub-agent: the shell call", `{` + tools + `,"messages":[` + subPrompt + `]}`, "tool_use", "Bash", Default.Preface},
		{"sub-agent: final after a later turn", `{` + tools + `,"messages":[` + subPrompt + `,` + bashCall + `,` + result("b1") + `,` + note + `]}`, "end_turn", "", Default.Final},
		{"Task, the older name", `{"tools":[{"name":"Task"},{"name":"Bash"}],"messages":[` + mainPrompt + `]}`, "tool_use", "Task", ""},
		{"no sub-agent tool: the default script", `{"tools":[{"name":"Bash"}],"messages":[` + mainPrompt + `]}`, "tool_use", "Bash", Default.Preface},
		{"side request", `{"messages":[` + mainPrompt + `]}`, "end_turn", "", "Mock session"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := post(t, s, "/v1/messages", c.body)
			if m["stop_reason"] != c.stop {
				t.Errorf("stop_reason %v, want %s", m["stop_reason"], c.stop)
			}
			tool, text := "", ""
			for _, b := range m["content"].([]any) {
				b := b.(map[string]any)
				switch b["type"] {
				case "tool_use":
					tool = b["name"].(string)
					if in := b["input"].(map[string]any); tool != "Bash" && (in["prompt"] != task || in["subagent_type"] != "general-purpose") {
						t.Errorf("sub-agent call input %v, want prompt %q and subagent_type general-purpose", in, task)
					}
				case "text":
					text = b["text"].(string)
				}
			}
			if tool != c.tool || text != c.text {
				t.Errorf("reply calls %q with text %q, want %q and %q", tool, text, c.tool, c.text)
			}
		})
	}
}
