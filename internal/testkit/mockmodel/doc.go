// Package mockmodel is a model service for the real agents' tests: it
// listens on 127.0.0.1 on a free port, plays one scripted conversation in
// each protocol an agent speaks (Anthropic Messages, OpenAI Responses,
// OpenAI Chat Completions, Gemini generateContent), and records every
// request body, so a test can check what an agent sent the model when it
// resumed a session.
//
// The core (this file's package: Server, Request, Script) knows no
// protocol; each protocol is one file that registers its routes (Route)
// and, beside it, a linter for the rules the real service enforces and
// the mock does not.
package mockmodel
