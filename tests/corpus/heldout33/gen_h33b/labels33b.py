#!/usr/bin/env python3
"""Copy each kept log (unedited) to ../h33b_<slug>.log and write its label into ../labels.json (entries in
labels33b_entries.py; entries already in labels.json are kept)."""
import json, os, shutil, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from labels33b_entries import ENTRIES, TOOLS

HERE = os.path.dirname(os.path.abspath(__file__)); OUT = os.path.dirname(HERE); RUNS = "/work/lab33b/runs"
path = os.path.join(OUT, "labels.json")
labels = json.load(open(path)) if os.path.exists(path) else {}
for e in ENTRIES:
    name = f"h33b_{e['slug']}.log"
    shutil.copyfile(os.path.join(RUNS, e["case"], e.get("file", "out.log")), os.path.join(OUT, name))
    lab = {"source": f"GENERATED: {TOOLS}: {e['how']}", "anomaly": e["anomaly"], "category": e["category"],
           "requeue": e["requeue"], "culprit_nodes": e.get("culprit_nodes", []), "why": e["why"]}
    for k in ("job_nodes", "checkpoints", "silence_s"):
        if k in e: lab[k] = e[k]
    labels[name] = lab
with open(path, "w") as f:
    json.dump(labels, f, indent=1, ensure_ascii=False, sort_keys=True); f.write("\n")
print(len(ENTRIES), "entries;", len(labels), "labels in", path)
