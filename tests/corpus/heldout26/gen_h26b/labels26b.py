"""Copy each kept log unedited to ../h26b_<slug>.log and write its entry into ../labels.json (entries in
labels26b_entries.py). Labels were written by hand from the logs by tests/corpus/LABELLING.md."""
import json, os, shutil, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from labels26b_entries import ENTRIES, VERS, SL, NS
HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.dirname(HERE)
lab_path = os.path.join(SET, "labels.json")
labels = json.load(open(lab_path)) if os.path.exists(lab_path) else {}
for e in ENTRIES:
    name = f"h26b_{e['slug']}.log"
    shutil.copyfile(os.path.join("/work/lab26b/runs", e["log"]), os.path.join(SET, name))
    vers = VERS + (SL if "sbatch" in e["case"] else "") + (NS if "2host" in e["case"] else "")
    lab = {"source": f"GENERATED: {vers}: tests/corpus/heldout26/gen_h26b/{e['case']}: {e['how']}; kept file {e['log']} -> {name}, unedited"
                     + (f"; {e['irregular']}" if e.get("irregular") else "")}
    for k in ("anomaly", "category", "requeue", "culprit_nodes", "job_nodes", "checkpoints", "silence_s", "why"):
        if k in e:
            lab[k] = e[k]
    labels[name] = lab
with open(lab_path, "w", encoding="utf-8") as f:
    json.dump(dict(sorted(labels.items())), f, indent=1, ensure_ascii=False)
    f.write("\n")
print(len(labels), "labels")
