"""writes token shards (uint16, vocab 8192, Zipf-ish) for t20.py: train-00000.bin ... and valid-00000.bin ..."""
import sys, os, numpy as np
d = sys.argv[1]; n = int(sys.argv[2]) if len(sys.argv) > 2 else 64
os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(0)
for kind, k in (("train", n), ("valid", 4)):
    for i in range(k):
        t = (rng.zipf(1.3, 200_000) % 8192).astype(np.uint16)
        t.tofile(os.path.join(d, f"{kind}-{i:05d}.bin"))
