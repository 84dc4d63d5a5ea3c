#!/bin/bash
# torchrun 2 ranks, Ultralytics-YOLO-classify style, 2 DataLoader workers per rank; the data set is 30 shard files
# listed in index.json, one of which (shard-00017.bin) was never copied -> FileNotFoundError in a DataLoader worker
# when the shard-ordered sampler first reaches it.
CASE=a04; PORT=42604; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
$V/python - <<'PY'
import json, numpy as np, os
x = np.fromfile("/work/lab31b/data/feat.bin", dtype=np.float32).reshape(60000, 48); os.makedirs("shards", exist_ok=True)
names = [f"shard-{k:05d}.bin" for k in range(30)]
for k, n in enumerate(names): x[k * 2000:(k + 1) * 2000].tofile(f"shards/{n}")
json.dump({"rows_per_shard": 2000, "shards": names}, open("shards/index.json", "w"))
os.remove("shards/shard-00017.bin")
PY
TR $T --style yolo --steps 4000 --log-every 50 --shards $RUN/shards --workers 2 --persistent --eval-every 1 --ckpt-dir $RUN/runs/classify/train --ckpt-every 312 > out.log 2>&1
