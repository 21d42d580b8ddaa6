package mockmodel

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"testing"
)

func TestServerRecordsAndRoutes(t *testing.T) {
	s := Start(t, Default, Route{Suffix: "/v1/ping", Handler: func(s *Server, w http.ResponseWriter, r *http.Request, body []byte) {
		_, _ = w.Write(append([]byte("pong:"), body...))
	}})
	cases := []struct {
		path, body, gz, want string
	}{
		{path: "/base/v1/ping", body: "a", want: "pong:a"},
		{path: "/v1/ping", gz: "zipped", want: "pong:zipped"},
		{path: "/telemetry", body: "x", want: "{}"},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		req, _ := http.NewRequest("POST", s.URL+c.path, bytes.NewBufferString(c.body))
		if c.gz != "" {
			zw := gzip.NewWriter(&buf)
			_, _ = zw.Write([]byte(c.gz))
			_ = zw.Close()
			req, _ = http.NewRequest("POST", s.URL+c.path, &buf)
			req.Header.Set("Content-Encoding", "gzip")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(got) != c.want {
			t.Errorf("%s: got %q, want %q", c.path, got, c.want)
		}
	}
	if n := s.Count(); n != 3 {
		t.Fatalf("recorded %d requests, want 3", n)
	}
	if rs := s.RequestsTo("/v1/ping"); len(rs) != 2 || string(rs[1].Body) != "zipped" {
		t.Fatalf("RequestsTo: %+v", rs)
	}
}
