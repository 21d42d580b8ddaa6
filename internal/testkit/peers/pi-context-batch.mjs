// pi-context.mjs (../shared/peers) for many files in one node process
// (peers.PiContexts). Run with the peers folder as the working directory,
// where its node_modules resolve the import:
//   node --input-type=module -e "$(cat pi-context-batch.mjs)" FILE...
// Prints one JSON line per file, in order: what pi's own SessionManager sees
// (header version, entries, leaf, whether it rewrote the file, the LLM
// context it builds), or {"path", "error"} when pi throws on it.
import { SessionManager } from "@mariozechner/pi-coding-agent";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";

const text = (m) => typeof m.content === "string" ? m.content
  : Array.isArray(m.content) ? m.content.map((b) => b.text ?? b.thinking ?? b.name ?? "").join("|") : (m.summary ?? m.command ?? "");

for (const src of process.argv.slice(1)) {
  // pi REWRITES a file it had to migrate, so each is opened from a private copy.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pi-context-"));
  try {
    const copy = path.join(tmp, path.basename(src));
    fs.copyFileSync(src, copy);
    const before = crypto.createHash("sha256").update(fs.readFileSync(copy)).digest("hex");
    const sm = SessionManager.open(copy, tmp);
    const ctx = sm.buildSessionContext();
    const after = crypto.createHash("sha256").update(fs.readFileSync(copy)).digest("hex");
    console.log(JSON.stringify({
      path: src,
      version: sm.getHeader()?.version ?? null,
      entries: sm.getEntries().length,
      leaf: sm.getLeafId(),
      rewrittenByPi: before !== after,
      messages: ctx.messages.length,
      roles: ctx.messages.reduce((a, m) => ((a[m.role] = (a[m.role] || 0) + 1), a), {}),
      digest: crypto.createHash("sha256").update(ctx.messages.map((m) => m.role + ":" + text(m)).join("\n")).digest("hex").slice(0, 16),
    }));
  } catch (e) {
    console.log(JSON.stringify({ path: src, error: String(e?.stack ?? e) }));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
