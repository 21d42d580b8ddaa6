package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// SSE writes server-sent events to an agent that streams.
type SSE struct {
	w http.ResponseWriter
	f http.Flusher
}

// NewSSE starts an event stream on w.
func NewSSE(w http.ResponseWriter) *SSE {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &SSE{w: w, f: f}
}

// Event writes one event; an empty name writes a data-only event (Chat
// Completions and Gemini), v is encoded as JSON unless it is a string.
func (s *SSE) Event(name string, v any) {
	var data []byte
	if str, ok := v.(string); ok {
		data = []byte(str)
	} else {
		var err error
		if data, err = json.Marshal(v); err != nil {
			panic(fmt.Sprintf("mockmodel: encoding an event: %v", err))
		}
	}
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", data)
	if s.f != nil {
		s.f.Flush()
	}
}
