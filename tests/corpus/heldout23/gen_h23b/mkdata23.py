# token files for t23.py: Zipf-like ids in [1, 4096) (0 = pad), uint16
import numpy as np, sys
out, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(23)
z = rng.zipf(1.3, n) % 4095 + 1
np.asarray(z, dtype=np.uint16).tofile(out)
