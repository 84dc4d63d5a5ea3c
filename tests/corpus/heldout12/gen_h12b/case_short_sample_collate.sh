#!/bin/bash
# DDP run reading a token file sequentially, one contiguous shard per rank; the file length
# (prepared here with numpy) leaves rank 1's shard with a short final sample.
CASE=short_sample_collate; . "$(dirname "$0")/common.sh"
$V/python -c "import numpy as np; np.random.seed(0); np.random.randint(0,1024,size=2*65*96+40,dtype=np.uint16).tofile('tokens.bin')"
$TR $G/titan_lite.py --parallel ddp --data tokens.bin --sequential --steps 300 --log-freq 5 > out.log 2>&1
echo "rc=$?" > rc.txt
