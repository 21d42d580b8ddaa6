package html

import "strings"

// Code is coloured in the browser, not here: a block is sent as escaped
// text with its language in data-lang, and the page's script runs the
// embedded highlight.js over each block when it scrolls into view. Tokenising
// every block of a session in Go (chroma's regular-expression lexers) was
// two thirds of an export's time and tripled the page's data; a reader looks
// at a few blocks. The browser resolves the name (an extension such as "ts"
// is an alias there), and a language it does not know stays plain text.

// maxHighlight is the largest block that gets a language: colouring
// megabytes of output would stall the browser and help nobody.
const maxHighlight = 256 << 10

// codeBlock writes code as a <pre> for the browser to colour as lang.
func codeBlock(b *buf, code, lang string) {
	lang = langName(lang)
	if lang == "" || len(code) > maxHighlight {
		b.WriteString(`<pre class="code"><code>`)
	} else {
		b.WriteString(`<pre class="code" data-lang="` + lang + `"><code>`)
	}
	b.text(code)
	b.WriteString("</code></pre>")
}

// langName keeps a language name that can only be a name: lower case
// letters, digits and + # . _ - (c++, c#, objective-c), at most 32 bytes.
// Anything else (an info string with attributes, hostile text) gives "", so
// the name needs no escaping in the attribute.
func langName(s string) string {
	if i := strings.IndexAny(s, " \t{,"); i >= 0 {
		s = s[:i]
	}
	if s == "" || len(s) > 32 {
		return ""
	}
	s = strings.ToLower(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("+#._-", c) >= 0) {
			return ""
		}
	}
	return s
}

// langFor names a file's language by its extension (highlight.js knows
// extensions as aliases: ts, py, rs, yml, …), or by its name for files
// such as Makefile.
func langFor(file string) string {
	base := file[strings.LastIndexAny(file, `/\`)+1:] // sessions hold Windows paths too
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return langName(base[i+1:]) // .bashrc: its name
	}
	return langName(base)
}
