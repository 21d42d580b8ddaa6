// Writes ../pi-v3-branches.jsonl (three branches, a compaction on the
// active one, a branch summary, tool calls and results, thinking, a bash
// execution, a label, model and thinking-level changes, a custom entry and
// session info) with pi's own SessionManager (the real
// program, @mariozechner/pi-coding-agent from scripts/setup's .cache/peers),
// so the project has a tree sample it made itself. Ids and clocks are made
// deterministic (a counter behind crypto.randomUUID, a fixed clock behind
// Date), so running it again gives the same bytes.
// Run after scripts/setup (pi from $SESSTOOL_PEERS, else .cache/peers):
//   node testdata/samples/tree/generator/gen.mjs [OUT]
import crypto from "node:crypto";
import fs from "node:fs";
import module from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

let n = 0;
crypto.randomUUID = () => {
  n++;
  const h = crypto.createHash("sha256").update("sesstool-sample-" + n).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
module.syncBuiltinESMExports();

const RealDate = Date;
let clock = RealDate.parse("2026-11-20T09:00:00.000Z");
const tick = () => (clock += 7000);
globalThis.Date = class extends RealDate {
  constructor(...args) {
    super(...(args.length ? args : [tick()]));
  }
  static now() {
    return tick();
  }
};

const here = path.dirname(fileURLToPath(import.meta.url));
const peersDir = process.env.SESSTOOL_PEERS || path.resolve(here, "../../../../.cache/peers");
const peers = path.join(peersDir, "node_modules/@mariozechner/pi-coding-agent/dist/index.js");
const { SessionManager } = await import(peers);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pi-sample-"));
const sm = SessionManager.create("/srv/gen/pi/work/project", tmp);
sm.newSession({ id: "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d" });

const usage = (i, o) => ({
  input: i, output: o, cacheRead: 0, cacheWrite: 0, totalTokens: i + o,
  cost: { input: i * 3e-6, output: o * 15e-6, cacheRead: 0, cacheWrite: 0, total: i * 3e-6 + o * 15e-6 },
});
const assistant = (content, stopReason = "stop", i = 900, o = 120) => ({
  role: "assistant", content, api: "anthropic-messages", provider: "anthropic",
  model: "claude-sonnet-4-5", usage: usage(i, o), stopReason, timestamp: Date.now(),
});
const user = (text) => ({ role: "user", content: text, timestamp: Date.now() });
const result = (id, name, text, isError = false) => ({
  role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }], isError, timestamp: Date.now(),
});

sm.appendModelChange("anthropic", "claude-sonnet-4-5");
sm.appendThinkingLevelChange("medium");
sm.appendMessage(user("The tests in ./calc fail since yesterday. Can you find out why?"));
sm.appendMessage(assistant([
  { type: "thinking", thinking: "Run the tests first to see the failure.", thinkingSignature: "sig-1" },
  { type: "text", text: "Let me run the tests." },
  { type: "toolCall", id: "toolu_01", name: "bash", arguments: { command: "go test ./calc" } },
], "toolUse"));
sm.appendMessage(result("toolu_01", "bash", "--- FAIL: TestDivide (0.00s)\n    calc_test.go:14: Divide(1, 0): got 0, want error\nFAIL", true));
const read = sm.appendMessage(assistant([
  { type: "toolCall", id: "toolu_02", name: "read", arguments: { path: "calc/calc.go" } },
], "toolUse"));
sm.appendMessage(result("toolu_02", "read", "package calc\n\nfunc Divide(a, b int) int {\n\treturn a / b\n}\n"));
const answer = sm.appendMessage(assistant([
  { type: "text", text: "Divide has no check for a zero divisor. Shall I return an error?" },
]));
const yes = sm.appendMessage(user("Yes, return an error."));
sm.appendMessage(assistant([
  { type: "toolCall", id: "toolu_03", name: "edit", arguments: { path: "calc/calc.go", oldText: "func Divide(a, b int) int {\n\treturn a / b\n}", newText: "func Divide(a, b int) (int, error) {\n\tif b == 0 {\n\t\treturn 0, errors.New(\"divide by zero\")\n\t}\n\treturn a / b, nil\n}" } },
], "toolUse"));
sm.appendMessage(result("toolu_03", "edit", "Edited calc/calc.go"));
sm.appendMessage({ role: "bashExecution", command: "go test ./calc", output: "ok  \tcalc\t0.002s\n", exitCode: 0, cancelled: false, truncated: false, timestamp: Date.now() });
sm.appendMessage(assistant([{ type: "text", text: "Fixed: Divide returns an error for a zero divisor, and the tests pass." }], "stop", 4200, 60));
sm.appendLabelChange(answer, "diagnosis");
sm.appendCompaction("The user asked why ./calc's tests fail. Divide had no zero check; it now returns an error and the tests pass.", yes, 5200, { readFiles: ["calc/calc.go"], modifiedFiles: ["calc/calc.go"] });
sm.appendMessage(user("Also add a test for it."));
const added = sm.appendMessage(assistant([{ type: "text", text: "Added TestDivideByZero." }], "stop", 1300, 40));

// A second branch from the diagnosis: the user would rather panic.
sm.branchWithSummary(answer, "Explored returning an error for a zero divisor; the user chose to panic instead.");
sm.appendMessage(user("No: panic with a clear message instead."));
sm.appendMessage(assistant([{ type: "text", text: "Divide now panics with \"calc: divide by zero\"." }], "stop", 1100, 30));
sm.appendCustomEntry("sample-note", { branch: "panic" });
sm.appendSessionInfo("calc divide by zero");

// A third branch that ends in an error, from the first read.
sm.branch(read);
sm.appendMessage(assistant([], "error"));

// Back on the first branch, which holds the compaction: the active leaf.
sm.branch(added);
sm.appendMessage(user("Thanks, that's all."));
sm.appendMessage(assistant([{ type: "text", text: "You're welcome." }], "stop", 1400, 8));

const file = sm.getSessionFile();
const out = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(here, "..", "pi-v3-branches.jsonl");
fs.copyFileSync(file, out);
fs.rmSync(tmp, { recursive: true, force: true });
console.log(out);
