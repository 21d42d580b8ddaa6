// Reads a Claude Code store with the Claude Agent SDK's own session
// functions and prints what they return, one JSON document:
// {sessions: [{id, listed, title, messages: [{type, uuid}], subagents: [{id, messages}]}]}
// for every session listSessions lists and every id given after the SDK's
// path (getSessionMessages reads a session listSessions leaves out).
// Usage: CLAUDE_CONFIG_DIR=<store> HOME=<tmp> node claude-sdk.mjs <path of sdk.mjs> [session id...]
const sdk = await import(process.argv[2]);
const listed = new Map((await sdk.listSessions()).map(s => [s.sessionId, s]));
const ids = [...new Set([...listed.keys(), ...process.argv.slice(3)])];
const out = { sessions: [] };
for (const id of ids) {
  const messages = (await sdk.getSessionMessages(id)).map(m => ({ type: m.type, uuid: m.uuid }));
  const subagents = [];
  for (const a of await sdk.listSubagents(id)) {
    subagents.push({ id: a, messages: (await sdk.getSubagentMessages(id, a)).length });
  }
  out.sessions.push({ id, listed: listed.has(id), title: listed.get(id)?.summary ?? '', messages, subagents });
}
console.log(JSON.stringify(out));
