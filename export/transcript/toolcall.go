package transcript

import (
	"regexp"
	"strings"
)

// IsShellTool reports whether a tool (its lower-cased name) runs a shell
// command: the exporters show its command as a terminal line.
func IsShellTool(name string) bool {
	switch name {
	case "bash", "shell", "exec", "run_command", "exec_command", "shell_command", "local_shell":
		return true
	}
	return false
}

// CommandLine is the command line a tool's command argument stands for.
// Codex's shell tool gives an argv array, most often ["bash", "-lc",
// "ls -la docs"]: a shell running one script shows as that script; any
// other array as its words, quoted where the shell would need it. A
// string is itself; anything else is "".
func CommandLine(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		words := make([]string, 0, len(c))
		for _, w := range c {
			s, ok := w.(string)
			if !ok {
				return ""
			}
			words = append(words, s)
		}
		if len(words) == 3 && isShell(words[0]) && strings.HasPrefix(words[1], "-") && strings.HasSuffix(words[1], "c") {
			return words[2]
		}
		for i, w := range words {
			words[i] = shellQuote(w)
		}
		return strings.Join(words, " ")
	}
	return ""
}

func isShell(p string) bool {
	switch p[strings.LastIndexByte(p, '/')+1:] {
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "pwsh", "powershell":
		return true
	}
	return false
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

func shellQuote(w string) string {
	if shellSafe.MatchString(w) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

var (
	// Claude Code's Read: "     1→text" (cat -n's width, an arrow)
	arrowNumbered = regexp.MustCompile(`^ *\d+→`)
	// OpenCode's read: "1: text" inside <content>…</content>
	colonNumbered = regexp.MustCompile(`^\d+: ?`)
	openCodeTail  = regexp.MustCompile(`\n*\((?:End of file - total \d+ lines|Showing lines [^)]*|File has more lines[^)]*)\)\s*$`)
)

// FileText is a tool's output with the file text in it as the file's own
// text: without the line numbers Claude Code (`   1→`) and OpenCode (`1: `
// inside <content>) put before each line, which spoil its colouring and
// would be copied with it. An output that is not numbered so is returned
// as it is.
func FileText(s string) string {
	if i := strings.Index(s, "<content>\n"); i >= 0 && strings.HasPrefix(s, "<path>") {
		body := s[i+len("<content>\n"):]
		body = strings.TrimSuffix(strings.TrimRight(body, "\n"), "</content>")
		body = openCodeTail.ReplaceAllString(body, "")
		if out, ok := strip(body, colonNumbered); ok {
			return out
		}
		return s
	}
	// Claude Code numbers a read's lines, and the snippet an edit or a
	// write shows of the file after it, after a line of its own: every
	// numbered line loses its number
	if !strings.Contains(s, "→") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if loc := arrowNumbered.FindStringIndex(l); loc != nil {
			lines[i] = l[loc[1]:]
		}
	}
	return strings.Join(lines, "\n")
}

// strip removes prefix from every line of s, when every line that is not
// the last empty one has it.
func strip(s string, prefix *regexp.Regexp) (string, bool) {
	lines := strings.Split(s, "\n")
	n := 0
	for i, l := range lines {
		if l == "" && i == len(lines)-1 {
			continue
		}
		loc := prefix.FindStringIndex(l)
		if loc == nil {
			return s, false
		}
		lines[i] = l[loc[1]:]
		n++
	}
	return strings.Join(lines, "\n"), n > 0
}
