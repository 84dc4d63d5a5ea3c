#!/bin/bash
# Healthy with a loss spike: the token file has a 20-step stretch of random tokens (a noisy shard)
# around step 600; loss jumps and comes back down; training finishes.
CASE=loss_spike_recovers; . "$(dirname "$0")/common.sh"
$V/python - <<'PY'
import numpy as np
a = np.fromfile("tokens.bin", dtype=np.uint16); r = np.random.default_rng(5)
s = 600 * 16 * 65; a[s:s + 30 * 16 * 65] = r.integers(0, 512, 30 * 16 * 65); a.tofile("tokens.bin")
PY
$TR $G/lm13.py --steps 1000 --log-every 20 > out.log 2>&1; echo "rc=$?" > rc.txt
