package session

import (
	"encoding/json"
	"testing"
)

func TestObjExtrasWin(t *testing.T) {
	b := NewObj(Extras{{Key: "n", Value: json.RawMessage(`"7"`)}, {Key: "z", Value: json.RawMessage(`[1]`)}})
	b.Str("type", "message")
	b.Int("n", 7) // Extras hold the source's own spelling of n: the slot is skipped
	b.OptStr("empty", "")
	b.OptRaw("none", nil)
	b.Raw("nil", nil)
	b.Bool("ok", false)
	b.Null("p")
	want := `{"type":"message","nil":null,"ok":false,"p":null,"n":"7","z":[1]}`
	if got := string(b.Bytes()); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
