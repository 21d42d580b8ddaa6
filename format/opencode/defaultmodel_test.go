package opencode

import (
	"os"
	"path/filepath"
	"testing"
)

// The default model is read from OpenCode's global config as OpenCode
// reads it: $OPENCODE_CONFIG first, then opencode.json, opencode.jsonc and
// config.json under $XDG_CONFIG_HOME/opencode, comments and trailing
// commas allowed, split at the first "/".
func TestConfiguredModel(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // by name under the config folder; "env" is $OPENCODE_CONFIG
		want  inForce
	}{
		{"none", nil, inForce{}},
		{"json", map[string]string{"opencode.json": `{"model":"anthropic/claude-sonnet-4"}`}, inForce{"anthropic", "claude-sonnet-4"}},
		{"jsonc with comments and trailing commas", map[string]string{"opencode.jsonc": "{\n // the default\n \"model\": \"openrouter/x/y\", /* a // b */\n \"share\": \"disabled\",\n}"}, inForce{"openrouter", "x/y"}},
		{"a slash in a string is no comment", map[string]string{"opencode.json": `{"$schema":"https://opencode.ai/config.json","model":"p/m"}`}, inForce{"p", "m"}},
		{"no model in the first, the next names one", map[string]string{"opencode.json": `{"share":"disabled"}`, "config.json": `{"model":"p/m"}`}, inForce{"p", "m"}},
		{"env first", map[string]string{"env": `{"model":"e/m"}`, "opencode.json": `{"model":"p/m"}`}, inForce{"e", "m"}},
		{"a model without provider is none", map[string]string{"opencode.json": `{"model":"gpt-5"}`}, inForce{}},
		{"not JSON is none", map[string]string{"opencode.json": `{"model":`}, inForce{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			dir := filepath.Join(home, "opencode")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("XDG_CONFIG_HOME", home)
			t.Setenv("OPENCODE_CONFIG", "")
			for name, text := range tt.files {
				p := filepath.Join(dir, name)
				if name == "env" {
					p = filepath.Join(home, "env.json")
					t.Setenv("OPENCODE_CONFIG", p)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got, from := configuredModel(); got != tt.want {
				t.Errorf("configuredModel() = %+v from %q, want %+v", got, from, tt.want)
			}
		})
	}
}
