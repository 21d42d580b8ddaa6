package convert

import (
	"strconv"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
)

// DistinctID derives the id a session is written with when an earlier
// session of the same run has its id (two copies of one session in a
// store, the same session in a store and in its export). It keeps id's
// shape where the layout that made it insists on one, so every target
// accepts it: a UUID stays a UUID, an id of the form of the source layout's
// minter is derived by it (format.Distincter: an OpenCode id keeps its
// prefix and time part, so it sorts where the original does); any other id
// gets "-n". n counts from 2; taken reports ids already in use, which are
// passed over. The same input gives the same ids.
func DistinctID(id string, n int, taken func(string) bool, style format.IDStyle) string {
	d, own := style.Minter.(format.Distincter)
	own = own && style.Minter.Keeps(id)
	for ; ; n++ {
		var s string
		switch {
		case own:
			s = d.Distinct(id, n)
		case spell.IsUUID(id):
			s = spell.UUID(id + "#" + strconv.Itoa(n))
		default:
			s = id + "-" + strconv.Itoa(n)
		}
		if !taken(s) {
			return s
		}
	}
}
