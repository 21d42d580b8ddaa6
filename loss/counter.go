package loss

import (
	"fmt"
	"sort"
	"sync"
)

// Counter counts what a writer could not carry into its layout, by kind, so
// convert can say precisely what was lost. A nil Counter counts nothing.
type Counter struct {
	mu    sync.Mutex
	items map[string]*Item
}

// Item is one kind of loss.
type Item struct {
	Kind   Kind   `json:"kind"`   // e.g. "thinking-block"
	Count  int    `json:"count"`  // how many
	Action Action `json:"action"` // "dropped", "flattened", "converted", "moved"
	Reason string `json:"reason"` // why, e.g. "goat has no thinking"
}

// Add counts n of kind.
func (c *Counter) Add(kind Kind, action Action, reason string, n int) {
	if c == nil || n == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[string]*Item{}
	}
	k := string(kind) + "\x00" + string(action)
	it := c.items[k]
	if it == nil {
		it = &Item{Kind: kind, Action: action, Reason: reason}
		c.items[k] = it
	}
	it.Count += n
}

// Drop counts n things of kind the layout has no slot for.
func (c *Counter) Drop(kind Kind, reason string, n int) { c.Add(kind, Dropped, reason, n) }

// Items returns the counted losses, sorted by kind, then action.
func (c *Counter) Items() []Item {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Item, 0, len(c.items))
	for _, it := range c.items {
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
func (it Item) String() string {
	return fmt.Sprintf("%d %s %s (%s)", it.Count, it.Kind, it.Action, it.Reason)
}
