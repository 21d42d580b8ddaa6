package transcript

import "testing"

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{[]any{"bash", "-lc", "ls -la docs"}, "ls -la docs"},
		{[]any{"/bin/zsh", "-c", "go test ./..."}, "go test ./..."},
		{[]any{"rg", "-n", "TODO list", "src"}, "rg -n 'TODO list' src"},
		{[]any{"echo", "it's"}, `echo 'it'\''s'`},
		{"npm test", "npm test"},
		{[]any{"x", 1.0}, ""},
		{map[string]any{"a": "b"}, ""},
	} {
		if got := CommandLine(tc.in); got != tc.want {
			t.Errorf("CommandLine(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFileText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"     1→defmodule X do\n     2→  def a, do: 1\n     3→end\n", "defmodule X do\n  def a, do: 1\nend\n"},
		{"    99→x\n   100→y", "x\ny"},
		{"<path>/w/a.sh</path>\n<type>file</type>\n<content>\n1: #!/bin/bash\n2: \n3: echo hi\n\n(End of file - total 3 lines)\n</content>", "#!/bin/bash\n\necho hi"},
		{"The file a.go has been updated. Here's the result:\n    26→  end\n    27→end", "The file a.go has been updated. Here's the result:\n  end\nend"},
		{"plain output → arrows elsewhere", "plain output → arrows elsewhere"},
		{"12: not opencode", "12: not opencode"},
	} {
		if got := FileText(tc.in); got != tc.want {
			t.Errorf("FileText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
