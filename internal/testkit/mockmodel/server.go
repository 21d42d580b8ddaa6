package mockmodel

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Request is one request the mock received, body decompressed.
type Request struct {
	Method string
	Path   string // URL path, without the query
	Query  string
	Header http.Header
	Body   []byte
}

// Handler answers one request of a protocol. body is the request's
// decompressed body; the request is already recorded.
type Handler func(s *Server, w http.ResponseWriter, r *http.Request, body []byte)

// Route binds a handler to a path. Pattern is matched as a suffix of the
// URL path, so one route serves "/v1/messages" whatever base path an
// agent puts before it; the first route that matches wins.
type Route struct {
	Suffix  string
	Handler Handler
}

// Server is the mock model service.
type Server struct {
	URL    string // http://127.0.0.1:PORT, no trailing slash
	Script Script

	ts     *httptest.Server
	routes []Route

	mu   sync.Mutex
	reqs []Request
}

// Start listens on 127.0.0.1 on a free port and serves routes; the port
// is open when Start returns, so an agent started after it never races
// the listener. The server is closed when the test ends.
func Start(t testing.TB, script Script, routes ...Route) *Server {
	t.Helper()
	s := &Server{Script: script, routes: routes}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.ts.URL
	t.Cleanup(s.ts.Close)
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		http.Error(w, "mockmodel: reading body: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()
	for _, rt := range s.routes {
		if strings.HasSuffix(r.URL.Path, rt.Suffix) {
			rt.Handler(s, w, r, body)
			return
		}
	}
	// An agent's side request the script does not know (telemetry, model
	// lists) gets an empty success rather than an error it might retry.
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte("{}"))
}

// readBody reads a request body, gunzipping or deflating it per
// Content-Encoding where an agent compresses (Codex sends zstd on some
// versions; that is refused here as unknown so a test sees it).
func readBody(r *http.Request) ([]byte, error) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	switch r.Header.Get("Content-Encoding") {
	case "", "identity":
		return raw, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	default:
		return raw, nil
	}
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// RequestsTo returns the requests whose path ends in suffix.
func (s *Server) RequestsTo(suffix string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if strings.HasSuffix(r.Path, suffix) {
			out = append(out, r)
		}
	}
	return out
}

// Count is how many requests arrived: the agent runner's sign of progress.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}
