package ash

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

var (
	unsafeRun = regexp.MustCompile(`[^a-zA-Z0-9\-]`)
	underRuns = regexp.MustCompile(`_+`)
)

// sanitize cleans one key part as ash's types._sanitize does today: unsafe
// characters become "_", runs collapse, edges are trimmed, and a part longer
// than 64 keeps 51 characters plus "_" and 12 hex digits of its SHA-256.
func sanitize(raw string) string {
	s := unsafeRun.ReplaceAllString(raw, "_")
	s = underRuns.ReplaceAllString(s, "_")
	s = strings.Trim(s, "_")
	if s == "" {
		s = "default"
	}
	if len(s) > 64 {
		sum := sha256.Sum256([]byte(raw))
		s = s[:51] + "_" + hex.EncodeToString(sum[:])[:12]
	}
	return s
}

// SessionKey is the directory name today's ash (types.session_key) uses:
// provider, then chat_id, then user_id (only with a chat_id), then thread_id;
// without a chat_id, provider and user_id; thread_id last. Empty parts are left out, as
// Python's truthiness test does.
func SessionKey(provider, chatID, userID, threadID string) string {
	parts := []string{sanitize(provider)}
	if chatID != "" {
		parts = append(parts, sanitize(chatID))
		if userID != "" {
			parts = append(parts, sanitize(userID))
		}
	} else if userID != "" {
		parts = append(parts, sanitize(userID))
	}
	if threadID != "" {
		parts = append(parts, sanitize(threadID))
	}
	return strings.Join(parts, "_")
}

// v1SessionKey is the key of the v1 era (2026-01-12 .. 2026-02-15): no
// user_id after a chat_id, and a part longer than 64 was cut to 64.
func v1SessionKey(provider, chatID, userID, threadID string) string {
	clean := func(raw string) string {
		s := unsafeRun.ReplaceAllString(raw, "_")
		s = underRuns.ReplaceAllString(s, "_")
		s = strings.Trim(s, "_")
		if s == "" {
			s = "default"
		}
		if len(s) > 64 {
			s = s[:64]
		}
		return s
	}
	parts := []string{clean(provider)}
	if chatID != "" {
		parts = append(parts, clean(chatID))
	} else if userID != "" {
		parts = append(parts, clean(userID))
	}
	if threadID != "" {
		parts = append(parts, clean(threadID))
	}
	return strings.Join(parts, "_")
}
