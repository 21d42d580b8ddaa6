package ash

// V1SessionKey lets the external fuzz tests name a v1 session directory.
var V1SessionKey = v1SessionKey
