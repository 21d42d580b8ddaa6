#!/usr/bin/env python3
"""Builds testdata/invalid/: one small OpenCode store (or export, or db) per
rule, each breaking exactly that rule, from the real 1.1.34 sample tree.
Run from format/opencode/testdata."""
import json, os, shutil, sqlite3

SRC = "samples/tree-v1.1.34/storage"
MAIN = "ses_e03a7a64affe0wHc2prdw2R2s7"
PROJ = "a5ee440f3a5b15dd18869d161cddabbf9605e671"
OUT = "invalid"

def base(name):
    """The sample tree without the main session: 2 sessions (parent, child)."""
    dst = os.path.join(OUT, name, "storage")
    shutil.copytree(SRC, dst)
    for m in os.listdir(os.path.join(dst, "message", MAIN)):
        shutil.rmtree(os.path.join(dst, "part", m[:-5]))
    shutil.rmtree(os.path.join(dst, "message", MAIN))
    os.remove(os.path.join(dst, "session", PROJ, MAIN + ".json"))
    for d in ("todo", "session_diff"):
        p = os.path.join(dst, d, MAIN + ".json")
        if os.path.exists(p):
            os.remove(p)
    return dst

def edit(path, fn):
    d = json.load(open(path))
    fn(d)
    open(path, "w").write(json.dumps(d, indent=2, ensure_ascii=False))

PARENT = "ses_e03a737e8ffeFPl5pgZjDAnlwG"
CHILD = "ses_e03a73772ffeu66Dofli58suGI"
USER = "msg_1fc58c82b001zeIZ2mOwr91GNF"
ASST = "msg_1fc58c855001t3jmZTS98ECdkV"
ASST2 = "msg_1fc58c90b001Uku7bZWLQtq0ta"
TOOLPART = "prt_1fc58c8a2001p04VIqCZsx0K3K"
TEXTPART = "prt_1fc58c920001VFapSo1QV17ZN3"

def msg(st, sid, mid): return os.path.join(st, "message", sid, mid + ".json")
def part(st, mid, pid): return os.path.join(st, "part", mid, pid + ".json")

shutil.rmtree(OUT, ignore_errors=True)

st = base("json-syntax")
open(part(st, ASST2, TEXTPART), "w").write('{\n  "id": "%s",\n  "type": "text",\n  "text": "cut off\n' % TEXTPART)

st = base("schema")
edit(msg(st, PARENT, ASST), lambda d: (d.pop("modelID"), d.__setitem__("cost", "free")))

st = base("id-mismatch")
os.rename(part(st, ASST2, TEXTPART), part(st, ASST2, "prt_1fc58c920001AAAAAAAAAAAAAA"))

st = base("key-mismatch")
edit(msg(st, PARENT, ASST2), lambda d: d.__setitem__("sessionID", CHILD))
edit(part(st, ASST, TOOLPART), lambda d: d.__setitem__("messageID", ASST2))

st = base("bad-id")
bad = "prt_1FC58C920001VFapSo1QV17Z"
edit(part(st, ASST2, TEXTPART), lambda d: d.__setitem__("id", bad))
os.rename(part(st, ASST2, TEXTPART), part(st, ASST2, bad))

st = base("orphan-session")
os.remove(os.path.join(st, "project", PROJ + ".json"))

st = base("orphan-message")
os.makedirs(os.path.join(st, "message", MAIN))
shutil.copy(os.path.join(SRC, "message", MAIN, "msg_1fc5859d7001oXixmkaPH5k0Xd.json"), os.path.join(st, "message", MAIN))

st = base("orphan-part")
shutil.copytree(os.path.join(SRC, "part", "msg_1fc5859d7001oXixmkaPH5k0Xd"), os.path.join(st, "part", "msg_1fc5859d7001oXixmkaPH5k0Xd"))

st = base("assistant-parent")
edit(msg(st, PARENT, ASST2), lambda d: d.__setitem__("parentID", ASST))

st = base("dangling-parent")
edit(os.path.join(st, "session", PROJ, CHILD + ".json"), lambda d: d.__setitem__("parentID", "ses_e03a737e8ffeAAAAAAAAAAAAAA"))

st = base("unknown-part-type")
edit(part(st, ASST2, TEXTPART), lambda d: d.__setitem__("type", "markdown"))

st = base("unknown-role")
edit(msg(st, PARENT, ASST2), lambda d: d.__setitem__("role", "system"))

st = base("unknown-tool-status")
edit(part(st, ASST, TOOLPART), lambda d: d["state"].__setitem__("status", "cancelled"))

st = base("duplicate-id")
os.makedirs(os.path.join(st, "session", "global"))
shutil.copy(os.path.join(st, "session", PROJ, CHILD + ".json"), os.path.join(st, "session", "global"))

st = base("bad-migration")
open(os.path.join(st, "migration"), "w").write("two")

st = base("duplicate-key")
p = part(st, ASST2, TEXTPART)
text = open(p).read()
open(p, "w").write(text.replace('"type": "text",', '"type": "text",\n  "type": "reasoning",', 1))

# An export breaking several rules at once, and a database.
os.makedirs(os.path.join(OUT, "export"))
d = json.load(open("samples/export/v1.1.34__%s.json" % PARENT))
d["messages"][1]["info"]["role"] = "robot"
d["messages"][2]["parts"][1]["type"] = "markdown"
d["messages"][2]["parts"][2]["sessionID"] = CHILD
d["messages"][0]["parts"][0]["id"] = "prt_short"
open(os.path.join(OUT, "export", "broken.json"), "w").write(json.dumps(d, indent=2, ensure_ascii=False) + "\n")
d = json.load(open("samples/export/v1.1.34__%s.json" % PARENT))
text = json.dumps(d, indent=2, ensure_ascii=False) + "\n"
open(os.path.join(OUT, "export", "duplicate-key.json"), "w").write(text.replace('"role": "assistant",', '"role": "assistant",\n        "role": "user",', 1))
# a second top-level info: a reader that keeps the last one sees another session
open(os.path.join(OUT, "export", "duplicate-member.json"), "w").write(text.rstrip()[:-1].rstrip() + ',\n  "info": {}\n}\n')

os.makedirs(os.path.join(OUT, "sqlite"))
db = os.path.join(OUT, "sqlite", "opencode.db")
shutil.copy("samples/sqlite/opencode-1.2.1-after-json-migration.db", db)
c = sqlite3.connect(db)
c.execute("PRAGMA foreign_keys=OFF")
c.execute("UPDATE part SET data = json_set(data, '$.type', 'markdown') WHERE id = ?", (TEXTPART,))
c.execute("UPDATE message SET session_id = 'ses_e03a737e8ffeAAAAAAAAAAAAAA' WHERE id = ?", ("msg_1fc58c892001aOEQJXRQXYeceg",))
c.execute("DELETE FROM project")
c.commit()
c.execute("PRAGMA journal_mode=DELETE")
c.close()
