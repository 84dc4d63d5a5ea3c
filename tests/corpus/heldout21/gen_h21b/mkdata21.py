"""mkdata21.py: token shards (uint16, Zipf-like ids below 8192) for t21.py.
/work/lab21b/data/main: train-00..04 (2M tokens each) and valid-00;
/work/lab21b/data/part0, part1: per-rank partitions (part1's largest id happens to be below 8191)."""
import os, numpy as np
R = "/work/lab21b/data"
def shard(path, n, seed, top=8192):
    rng = np.random.default_rng(seed)
    t = np.minimum(rng.zipf(1.2, n) - 1, top - 1).astype(np.uint16)
    t.tofile(path)
os.makedirs(f"{R}/main", exist_ok=True)
for i in range(5):
    shard(f"{R}/main/train-{i:02d}.bin", 2_000_000, i)
shard(f"{R}/main/valid-00.bin", 500_000, 99)
for r in (0, 1):
    os.makedirs(f"{R}/part{r}", exist_ok=True)
    for i in range(2):
        shard(f"{R}/part{r}/train-{i:02d}.bin", 1_000_000, 50 + 10 * r + i, top=8192 if r == 0 else 8000)
    shard(f"{R}/part{r}/valid-00.bin", 200_000, 98)
