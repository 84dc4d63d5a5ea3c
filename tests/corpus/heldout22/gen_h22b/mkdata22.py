# token shards for t22.py: Zipf-like uint16 ids, 4 shards of 2M tokens in /work/lab22b/data
import numpy as np, os
os.makedirs("/work/lab22b/data", exist_ok=True)
g = np.random.default_rng(22)
for i in range(4):
    ids = np.minimum(g.zipf(1.3, 2_000_000), 4095).astype(np.uint16)
    ids.tofile(f"/work/lab22b/data/shard{i}.bin")
print("ok")
