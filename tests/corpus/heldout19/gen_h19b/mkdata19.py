# writes the m19.py training shards: <dir>/rank<r>/part-NNNNN.bin, float32 rows of 64 features + label
import sys, os, numpy as np
out, ranks = sys.argv[1], int(sys.argv[2])
T = np.random.default_rng(42).normal(size=(64, 10))
for r in range(ranks):
    os.makedirs(f"{out}/rank{r}", exist_ok=True)
    g = np.random.default_rng(100 + r)
    for i in range(20):
        X = g.normal(size=(2048, 64)).astype(np.float32)
        y = (X @ T + g.normal(scale=2.0, size=(2048, 10))).argmax(1).astype(np.float32)
        np.concatenate([X, y[:, None]], 1).astype(np.float32).tofile(f"{out}/rank{r}/part-{i:05d}.bin")
