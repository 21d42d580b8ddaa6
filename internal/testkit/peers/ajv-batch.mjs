// ajv-jsonl.mjs (../shared/peers) for many files in one node process
// (peers.AjvFiles): the schemas are loaded and compiled once. Run with the
// peers folder as the working directory, where its node_modules resolve:
//   node --input-type=module -e "$(cat ajv-batch.mjs)" SCHEMA_DIR LINE_SCHEMA DATA.jsonl...
// Prints one JSON line per file, in order: {"path", "lines", "invalid"},
// counted as ajv-jsonl.mjs counts them (a line that is not JSON is invalid).
import Ajv2020 from "ajv/dist/2020.js";
import fs from "node:fs";
import path from "node:path";

const [dir, lineSchema, ...files] = process.argv.slice(1);
const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: false });
const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith(".json") ? [path.join(d, e.name)] : []);
let target;
for (const f of walk(dir)) {
  const s = JSON.parse(fs.readFileSync(f, "utf8"));
  if (path.resolve(f) === path.resolve(lineSchema)) target = s;
  else if (s.$id) ajv.addSchema(s);
}
if (!target) { console.error(`no schema at ${lineSchema}`); process.exit(2); }
const validate = ajv.compile(target);
for (const file of files) {
  let n = 0, bad = 0;
  for (const line of fs.readFileSync(file, "utf8").split(/\r\n|\r|\n/)) {
    if (!line) continue;
    n++;
    let v;
    try { v = JSON.parse(line); } catch { bad++; continue; }
    if (!validate(v)) bad++;
  }
  console.log(JSON.stringify({ path: file, lines: n, invalid: bad }));
}
