# writes the h24b_ entries of ../labels.json (labels written by hand after reading each kept log) and copies the kept
# logs from the run directories under /work/lab24b (unedited).
import json, os, shutil
H = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(H)
PRE = 'GENERATED: torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6: tests/corpus/heldout24/gen_h24b/'
SL = 'Slurm 22.05.8 (private 4-node cluster lab24b on one 2-CPU VM, proctrack+task cgroup v1), '
L = {}
def add(name, src, case, how, **kw):
    L[name] = dict(src=src, source=PRE + case + ': ' + how, **kw)
exec(open(os.path.join(H, 'labels24b_entries.py')).read())
path = os.path.join(OUT, 'labels.json')
d = json.load(open(path))
for name, v in L.items():
    shutil.copyfile(v.pop('src'), os.path.join(OUT, name))
    d[name] = v
with open(path, 'w') as f:
    json.dump(d, f, sort_keys=True, indent=1, ensure_ascii=False); f.write('\n')
print(len(L), 'entries')
