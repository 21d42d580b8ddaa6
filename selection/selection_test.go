package selection

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	old := time.Local
	time.Local = tokyo
	defer func() { time.Local = old }()
	for _, tc := range []struct {
		in   string
		end  bool
		want string // RFC 3339 in UTC, "" for the zero time, "error"
	}{
		{"", false, ""},
		{"2026-11-23", false, "2026-11-22T15:00:00Z"},
		{"2026-11-23", true, "2026-11-23T14:59:59.999999999Z"},
		{"2026-11-23T09:00:00Z", false, "2026-11-23T09:00:00Z"},
		{"2026-11-23T09:00:00+01:00", true, "2026-11-23T08:00:00Z"},
		{"2026-13-01", false, "error"},
		{"23/11/2026", false, "error"},
		{"yesterday", false, "error"},
	} {
		got, err := ParseDate(tc.in, tc.end)
		switch {
		case tc.want == "error":
			if err == nil {
				t.Errorf("ParseDate(%q) = %v, want an error", tc.in, got)
			}
		case err != nil:
			t.Errorf("ParseDate(%q): %v", tc.in, err)
		case tc.want == "" && !got.IsZero():
			t.Errorf("ParseDate(%q) = %v, want zero", tc.in, got)
		case tc.want != "" && got.UTC().Format(time.RFC3339Nano) != tc.want:
			t.Errorf("ParseDate(%q, %v) = %s, want %s", tc.in, tc.end, got.UTC().Format(time.RFC3339Nano), tc.want)
		}
	}
}

func TestInProject(t *testing.T) {
	f := Filter{Cwd: "/home/me/app"}
	for _, tc := range []struct {
		cwd  string
		want bool
	}{
		{"/home/me/app", true},
		{"/home/me/app/", true},
		{"/home/me/app/sub/dir", true},
		{"/home/me/app/../app", true},
		{"/home/me/app2", false},
		{"/home/me", false},
		{"", false},
	} {
		if got := f.InProject(tc.cwd); got != tc.want {
			t.Errorf("InProject(%q) = %v, want %v", tc.cwd, got, tc.want)
		}
	}
	if !(Filter{}).InProject("") {
		t.Error("no --cwd must keep a session without a cwd")
	}
}

func TestInRange(t *testing.T) {
	day := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	f := Filter{Since: day("2026-01-01T00:00:00Z"), Until: day("2026-01-31T00:00:00Z")}
	for _, tc := range []struct {
		start time.Time
		want  bool
	}{
		{day("2026-01-01T00:00:00Z"), true}, // both ends inclusive
		{day("2026-01-31T00:00:00Z"), true},
		{day("2025-12-31T23:59:59Z"), false},
		{day("2026-01-31T00:00:01Z"), false},
		{time.Time{}, false}, // no time: outside any bound
	} {
		if got := f.InRange(tc.start); got != tc.want {
			t.Errorf("InRange(%v) = %v, want %v", tc.start, got, tc.want)
		}
	}
	if !(Filter{}).InRange(time.Time{}) {
		t.Error("no dates must keep an untimed session")
	}
}
