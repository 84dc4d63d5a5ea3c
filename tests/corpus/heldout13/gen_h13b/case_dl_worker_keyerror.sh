#!/bin/bash
# APPLICATION: the dataset remaps token ids through a 500-entry table (remap.json); the file's ids
# are < 500 except a later stretch (a shard tokenized with a 512-id vocabulary) -> KeyError raised in a
# DataLoader worker (2 workers per rank) at about step 350.
CASE=dl_worker_keyerror; . "$(dirname "$0")/common.sh"
$V/python - <<'PY'
import json, numpy as np
a = np.fromfile("tokens.bin", dtype=np.uint16) % 500; r = np.random.default_rng(7)
s = 350 * 16 * 65; a[s:] = np.where(r.random(len(a) - s) < 0.05, r.integers(500, 512, len(a) - s), a[s:])
a.astype(np.uint16).tofile("tokens.bin"); json.dump({str(i): i for i in range(500)}, open("remap.json", "w"))
PY
$TR $G/lm13.py --steps 800 --log-every 25 --workers 2 --remap remap.json > out.log 2>&1; echo "rc=$?" > rc.txt
