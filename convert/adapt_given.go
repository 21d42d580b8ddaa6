package convert

import "github.com/sesstool/sesstool/session"

// Next is the next entry the writer is given. The rules that depend on
// what the writer met before an entry (the entry a compaction follows, the
// time an entry without one is written with) apply here, in the order the
// writer meets the entries, which is not always the order they were
// adapted in (a tree target's last path entry is held back: tree).
func (a *adapted) Next() (*session.Entry, error) {
	e, err := a.answered()
	if err != nil {
		return nil, err
	}
	e = a.messageTime(a.firstKeptNamed(e))
	a.given++
	return e, nil
}
