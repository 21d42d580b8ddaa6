// Command seedgen writes the fuzz seed corpora (testdata/fuzz/FuzzX/ in each
// package, Go's layout) from testdata/samples plus a few hand-made hostile
// inputs. Only the project's own files are used: a seed is a copy of its
// input, and files copied from public repositories stay in ../shared.
// Run from the repository root: go run ./internal/testkit/fuzzcheck/seedgen
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// arg is one fuzz argument: a sample file (relative to testdata/samples),
// or literal text when it starts with "=".
type arg string

type seed struct {
	pkg, target, name string
	args              []arg
}

const (
	ocStore = "opencode/xdg/opencode/storage/"
	ocSes   = ocStore + "session/a5ee440f3a5b15dd18869d161cddabbf9605e671/ses_e03a7a64affe0wHc2prdw2R2s7.json"
	ocMsg   = ocStore + "message/ses_e03a7a64affe0wHc2prdw2R2s7/msg_1fc5859fb001AVlB5Jzf5pmiGs.json"
	ocPart  = ocStore + "part/msg_1fc5859fb001AVlB5Jzf5pmiGs/prt_1fc585a860019ydZE88ebLA4gd.json"
	goatA   = "goat/generated/projects/srv-gen-goat-work-project/sessions/3e7dfd39-96f7-438f-86f9-7f773e6d5295/"
	goatB   = "goat/generated/projects/srv-gen-goat-work-project/sessions/d94e39bb-a20b-4bcf-89d5-3e14595ee2e9/"
	ashV1   = "ash/generated-v1/sessions/telegram_-542863895_77/"
	ashV2   = "ash/generated-v2/sessions/cli/"
	ashTg   = "ash/generated-v2/sessions/telegram_-100123456_958786881_211/"
	flatA   = "flat/20261121-042424-f487536d.jsonl"
	flatB   = "flat/20261121-042425-a1bea1d6.jsonl"
	piTree  = "tree/pi-v3-branches.jsonl"
	// ashCases are the ash sessions made by hand for format/ash's tests.
	ashCases = "../../format/ash/testdata/cases/"
)

// hostile inputs every single-file target also starts from.
var hostile = map[string]string{
	"empty":     "=",
	"bom":       "=\ufeff{\"type\":\"session\",\"id\":\"s\",\"version\":1}\n",
	"dupkey":    "={\"type\":\"session\",\"id\":\"s\",\"id\":\"t\",\"version\":1,\"timestamp\":\"2026-11-21T04:24:24Z\",\"cwd\":\"/\"}\n",
	"torn":      "={\"type\":\"session\",\"id\":\"s\",\"version\":1,\"timestamp\":\"2026-11-21T04:24:24Z\",\"cwd\":\"/\"}\n{\"type\":\"mess",
	"deep":      "=" + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n",
	"bignum":    "={\"type\":\"session\",\"id\":\"s\",\"version\":1e400,\"timestamp\":\"2026-11-21T04:24:24Z\",\"cwd\":\"/\",\"n\":123456789012345678901234567890}\n",
	"nul":       "={\"type\":\"session\",\"id\":\"a\\u0000b\",\"version\":1}\n\x00\n",
	"unsafe-id": "={\"type\":\"session\",\"id\":\"../../x\",\"version\":1,\"timestamp\":\"2026-11-21T04:24:24Z\",\"cwd\":\"/\"}\n",
}

func seeds() []seed {
	var s []seed
	add := func(pkg, target, name string, args ...arg) {
		s = append(s, seed{pkg, target, name, args})
	}
	single := func(pkg, target string, samples ...string) {
		for _, p := range samples {
			add(pkg, target, filepath.Base(p), arg(p))
		}
		for name, text := range hostile {
			add(pkg, target, name, arg(text))
		}
	}
	single("format/flat", "FuzzFlat", flatA, flatB)
	single("validate", "FuzzEngine", flatA, flatB, ashV2+"context.jsonl", piTree)
	single("format/opencode", "FuzzOpenCodeExport",
		"opencode/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json", "opencode/export/v1.1.34__ses_e03a73772ffeu66Dofli58suGI.child.json")
	add("format/opencode", "FuzzOpenCodeTree", "sample", ocSes, ocMsg, ocPart)
	add("format/opencode", "FuzzOpenCodeTree", "empty-part", ocSes, ocMsg, "={}")
	add("format/goat", "FuzzGoat", "with-transcript", goatA+"messages.jsonl", goatA+"metadata.json", goatA+"transcript.jsonl")
	add("format/goat", "FuzzGoat", "plain", goatB+"messages.jsonl", goatB+"metadata.json", "=")
	for _, d := range []string{ashV1, ashV2, ashTg} {
		name := strings.Trim(strings.ReplaceAll(strings.TrimPrefix(d, "ash/"), "/", "-"), "-")
		add("format/ash", "FuzzAsh", name, arg(d+"context.jsonl"), arg(d+"history.jsonl"), arg(d+"state.json"))
	}
	for _, c := range []string{"valid/stray-tool-use", "valid/subagent-tools", "invalid/cycle", "invalid/missing-header"} {
		add("format/ash", "FuzzAsh", "case-"+strings.ReplaceAll(c, "/", "-"), arg(ashCases+c+"/cli/context.jsonl"), "=", "=")
	}
	add("format/ash", "FuzzAshMigrate", "v1", ashV1+"context.jsonl", ashV1+"history.jsonl", ashV1+"state.json")
	add("format/ash", "FuzzAshMigrate", "v1-context-only", ashV1+"context.jsonl", "=", "=")
	for _, p := range []string{"v1-compaction.jsonl", "v1-crlf.jsonl", "v1-malformed.jsonl", "v2-hook.jsonl", "v3-custom.jsonl", "v1-compaction-header.jsonl", "v1-compaction-out-of-range.jsonl"} {
		add("format/tree/migrate", "FuzzTreeMigrate", p, arg("../../format/tree/migrate/testdata/"+p))
	}
	add("format/tree/migrate", "FuzzTreeMigrate", "pi-v3-branches", piTree)
	treeSeeds := []string{piTree}
	for _, p := range []string{"valid/v2_hook.jsonl", "valid/v3_all.jsonl", "valid/v3_omp.jsonl", "invalid/cycle.jsonl", "invalid/dangling-reference-v1.jsonl", "invalid/duplicate-header.jsonl", "invalid/torn-line.jsonl"} {
		treeSeeds = append(treeSeeds, "../../format/tree/testdata/"+p)
		add("format/tree/migrate", "FuzzTreeMigrate", "tree-"+strings.ReplaceAll(p, "/", "-"), arg("../../format/tree/testdata/"+p))
	}
	single("format/tree", "FuzzTreeConvert", treeSeeds...)
	return s
}

func main() {
	for _, s := range seeds() {
		var b strings.Builder
		b.WriteString("go test fuzz v1\n")
		for _, a := range s.args {
			data, err := load(a)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			b.WriteString("[]byte(" + strconv.Quote(string(data)) + ")\n")
		}
		if s.target == "FuzzTreeMigrate" {
			b.WriteString("uint8(2)\n") // version 3
		}
		dir := filepath.Join(s.pkg, "testdata", "fuzz", s.target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := os.WriteFile(filepath.Join(dir, "seed-"+s.name), []byte(b.String()), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func load(a arg) ([]byte, error) {
	if t, ok := strings.CutPrefix(string(a), "="); ok {
		return []byte(t), nil
	}
	return os.ReadFile(filepath.Join("testdata", "samples", string(a)))
}
