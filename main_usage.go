package main

import (
	"context"
	"runtime/debug"
	"strings"

	"github.com/sesstool/sesstool/command"
	"github.com/urfave/cli/v3"
)

// version is the module version the binary was built from (go install
// ...@v1.2.0 records it), "(devel)" for a build from a checkout.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// notDefined is the flag package's message for an unknown flag; it spells
// the flag with one dash whatever the user typed.
const notDefined = "flag provided but not defined: -"

// usageError turns a flag parsing error into a usage error (exit 2). An
// unknown flag is echoed the way this CLI spells flags (--name, or -o for a
// one-letter one) with the nearest flag of that command as a suggestion.
func usageError(_ context.Context, c *cli.Command, err error, _ bool) error {
	name, ok := strings.CutPrefix(err.Error(), notDefined)
	if !ok {
		return command.Usage("%v", err)
	}
	name = strings.TrimLeft(name, "-")
	msg := notDefined[:len(notDefined)-1] + dashed(name)
	var known []string
	for _, f := range c.Flags {
		known = append(known, f.Names()...)
	}
	if s := nearest(name, known); s != "" {
		msg += " (did you mean " + dashed(s) + "?)"
	}
	return command.Usage("%s", msg)
}

func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// unknownCommand is the error for a word that names no command, with the
// nearest command's name when it looks like a typo of one.
func unknownCommand(c *cli.Command, word string) error {
	var names []string
	for _, sc := range c.Commands {
		if !sc.Hidden {
			names = append(names, sc.Names()...)
		}
	}
	if s := nearest(word, names); s != "" {
		return command.Usage("unknown command %q: did you mean %s? (see 'sesstool --help')", word, s)
	}
	return command.Usage("unknown command %q (see 'sesstool --help')", word)
}

// nearest is the candidate closest to word by edit distance, when it is
// close enough to be a typo: one edit, or up to a third of the word's
// letters, and never the whole word (so "valdate" finds validate and "ot"
// finds to, while "frobnicate" and "x" find nothing).
func nearest(word string, candidates []string) string {
	limit := min(max(1, len([]rune(word))/3), len([]rune(word))-1)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := editDistance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance, with a transposition of two
// neighbouring letters counted as one edit (a common typo: "vaildate").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance between ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
