# one uint16 token file: Zipf-like ids 1..4095 with short repeated n-gram motifs, 3 M tokens
import numpy as np, sys
rng = np.random.default_rng(24)
n = 3_000_000
z = rng.zipf(1.3, n) % 4095 + 1
mot = rng.integers(1, 4096, (64, 8))
for s in rng.integers(0, n - 8, n // 40):
    z[s:s + 8] = mot[s % 64]
z.astype(np.uint16).tofile(sys.argv[1])
