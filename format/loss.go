package format

import (
	"fmt"
	"sort"
	"sync"
)

// Loss counts what a writer could not carry into its layout, by kind, so
// convert can say precisely what was dropped.
type Loss struct {
	mu    sync.Mutex
	items map[string]*LossItem
}

// LossItem is one kind of loss.
type LossItem struct {
	Kind   string `json:"kind"`   // e.g. "thinking-block"
	Count  int    `json:"count"`  // how many
	Action string `json:"action"` // "dropped", "flattened", "merged", ...
	Reason string `json:"reason"` // why, e.g. "goat has no thinking"
}

// Add counts n of kind.
func (l *Loss) Add(kind, action, reason string, n int) {
	if l == nil || n == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.items == nil {
		l.items = map[string]*LossItem{}
	}
	k := kind + "\x00" + action
	it := l.items[k]
	if it == nil {
		it = &LossItem{Kind: kind, Action: action, Reason: reason}
		l.items[k] = it
	}
	it.Count += n
}

// Items returns the counted losses, sorted by kind.
func (l *Loss) Items() []LossItem {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]LossItem, 0, len(l.items))
	for _, it := range l.items {
		out = append(out, *it)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Action < out[j].Action
	})
	return out
}

// String renders one item as "12 thinking-block dropped (goat has no thinking)".
func (it LossItem) String() string {
	return fmt.Sprintf("%d %s %s (%s)", it.Count, it.Kind, it.Action, it.Reason)
}
