# synthetic token files for lm13.py (uint16): a 4096-token random block tiled to N tokens
import sys, numpy as np
out, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(13)
blk = rng.integers(0, 512, 4096, dtype=np.uint16)
a = np.tile(blk, n // 4096 + 1)[:n]
if len(sys.argv) > 3:  # "zero:START:LEN" -> a zero-filled (collapsed) stretch of samples
    _, s, l = sys.argv[3].split(":"); a[int(s):int(s) + int(l)] = 0
a.tofile(out)
