// Package spell is how a writer spells the model in its layout's declared
// style (format.Caps: IDs, Times): ids derived from another layout's
// (NewIDs, SessionID, UUID, CallID), times (ISO, PyTime, Clock for an entry
// with none), a tool result's call kept (Calls), the neutral stop reasons
// (Stop) and the user message a role a layout lacks becomes (AsUser). It
// decides nothing about what a layout keeps: that is package convert's,
// done before the writer is handed the session.
package spell
