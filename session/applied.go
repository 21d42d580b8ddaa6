package session

// Applied is implemented by a Meta's Private note when its layout applies
// records that are not entries of the session (Gemini CLI's $set metadata
// patches and $rewindTo rewinds): how many of each it applied, by the
// name the layout gives them. info shows them, so that a file whose
// messages a rewind dropped does not look like the session it reads as.
type Applied interface {
	Applied() map[string]int
}
