package spell

import "testing"

func TestIDShapes(t *testing.T) {
	for _, c := range []struct {
		id         string
		hex8, uuid bool
	}{
		{"0a1b2c3d", true, false}, {"0A1B2C3D", false, false}, {"0a1b2c3", false, false}, {"0a1b2c3d9", false, false}, {"0a1b2c3g", false, false},
		{"0a1b2c3d-0000-4000-8000-000000000000", false, true}, {"0a1b2c3d-0000-4000-8000-00000000000", false, false},
		{"0a1b2c3d-0000-4000-8000x000000000000", false, false}, {"0a1b2c3d-0000-4000-8000-00000000000G", false, false}, {"", false, false},
	} {
		if IsHex8(c.id) != c.hex8 || IsUUID(c.id) != c.uuid {
			t.Errorf("%q: IsHex8 %v IsUUID %v, want %v %v", c.id, IsHex8(c.id), IsUUID(c.id), c.hex8, c.uuid)
		}
	}
}
