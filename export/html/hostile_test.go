package html

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/session"
)

// hostile breaks out of text, attribute (both quotes) and script contexts
// if it reaches the page unescaped; marker is what it leaves raw then.
const (
	hostile = `"'><i x=1 onmouseover=alert(1)></script><i x=1>`
	marker  = "<i x=1"
)

// TestEveryStringEscaped appends the hostile string to every string in the
// export fixture (meta, entries, messages, blocks, tool calls and results,
// exec, compactions, labels, sub-agents, checkpoints, source times: every
// string field, found by reflection so a new field is covered too; empty
// strings stay empty, so ids and links keep their meaning) and checks that
// it appears nowhere raw in the page: not in the page's own HTML (title,
// header) and not in any entry's pre-rendered HTML. The data's plain-text
// members (id, snippet, label) are inserted as text by page.js, which the
// browser test checks.
func TestEveryStringEscaped(t *testing.T) {
	s := fixture.Session()
	n := poison(reflect.ValueOf(s).Elem())
	if n < 40 {
		t.Fatalf("only %d strings poisoned", n)
	}
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, tr); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if i := strings.Index(page, marker); i >= 0 {
		t.Errorf("page HTML holds the hostile string raw: ...%s...", page[max(0, i-80):min(len(page), i+40)])
	}
	_, nodes := decode(t, page)
	shown := 0
	for _, nd := range nodes {
		if i := strings.Index(nd.HTML, marker); i >= 0 {
			t.Errorf("entry %s: HTML holds the hostile string raw: ...%s...", nd.ID, nd.HTML[max(0, i-80):min(len(nd.HTML), i+40)])
		}
		shown += strings.Count(nd.HTML, "&lt;i x=1")
	}
	t.Logf("%d strings poisoned, shown escaped %d times", n, shown)
	if shown < 10 {
		t.Errorf("the hostile string is shown escaped only %d times: the test is not reaching the renderer", shown)
	}
}

// poison appends hostile to every non-empty string reachable from v and
// returns how many it changed.
func poison(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() && v.Len() > 0 {
			v.SetString(v.String() + hostile)
			return 1
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return poison(v.Elem())
		}
	case reflect.Struct:
		n := 0
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && v.Type().Field(i).Type != reflect.TypeOf(session.Extras(nil)) {
				n += poison(v.Field(i))
			}
		}
		return n
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return 0 // raw JSON (arguments, details): kept as it is
		}
		n := 0
		for i := 0; i < v.Len(); i++ {
			n += poison(v.Index(i))
		}
		return n
	case reflect.Map:
		return 0
	}
	return 0
}
