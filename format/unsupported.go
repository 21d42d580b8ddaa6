package format

// Unsupported is a store of a layout's version sesstool knows of but does
// not read yet (OpenCode 2.x's database). Every command refuses it, detect
// too, instead of reading what it can of it as an older version.
type Unsupported struct{ What string }

func (u *Unsupported) Error() string { return u.What + ": not supported yet" }
