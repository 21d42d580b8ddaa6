package opencode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/format"
)

// configuredModel is the default model of the user's OpenCode config (its
// "model", "PROVIDER/MODEL"), with the file it came from; zero when no
// config names one. It is written on the messages of a session that names
// no model anywhere (ash names none): OpenCode 1.18 continues a session
// with the model its last user message names, and an export can neither
// leave that out nor name "the default" (import refuses a message without
// a model, and an empty one stops `opencode run` with a server error), so
// the model the user's OpenCode would choose for a new session is the one
// a user continuing the session expects. The files are read as OpenCode
// reads its global config: $OPENCODE_CONFIG, then opencode.json,
// opencode.jsonc and config.json in $XDG_CONFIG_HOME/opencode
// (~/.config/opencode), the first that names a model.
func configuredModel() (inForce, string) {
	dir := filepath.Join(format.EnvOrHome("XDG_CONFIG_HOME", ".config"), "opencode")
	var files []string
	if f := os.Getenv("OPENCODE_CONFIG"); f != "" {
		files = append(files, f)
	}
	for _, name := range []string{"opencode.json", "opencode.jsonc", "config.json"} {
		files = append(files, filepath.Join(dir, name))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a config that is not there (or not readable) names no model
		}
		var cfg struct {
			Model string `json:"model"`
		}
		if json.Unmarshal(stripJSONC(b), &cfg) != nil {
			continue
		}
		// OpenCode splits at the first "/": a model id may hold more
		provider, model, ok := strings.Cut(cfg.Model, "/")
		if ok && provider != "" && model != "" {
			return inForce{provider, model}, f
		}
	}
	return inForce{}, ""
}

// configModel is OpenCode's default model (format.DefaultModeler): the
// user's config's (configuredModel), else unknown/unknown, which OpenCode
// continues only with a model given (`opencode run -m PROVIDER/MODEL`).
type configModel struct{}

func (configModel) DefaultModel() (provider, model, why string) {
	ref, from := configuredModel()
	if ref.ModelID != "" {
		return ref.ProviderID, ref.ModelID, "the source names no model: written as the default model of OpenCode's config (" + from + "), " + ref.ProviderID + "/" + ref.ModelID
	}
	return "unknown", "unknown", "the source names no model and no OpenCode config names a default: written as unknown/unknown, which OpenCode continues only with `opencode run -m PROVIDER/MODEL`"
}

// stripJSONC removes the // and /* */ comments and the trailing commas
// OpenCode allows in its config, outside strings, so encoding/json reads
// it.
func stripJSONC(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr:
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			out = append(out, c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if i < len(b) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := strings.Index(string(b[i+2:]), "*/")
			if end < 0 {
				return out
			}
			i += end + 3
		case c == '}' || c == ']':
			// a trailing comma before the close
			j := len(out) - 1
			for j >= 0 && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r') {
				j--
			}
			if j >= 0 && out[j] == ',' {
				out = append(out[:j], out[j+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
