#!/bin/bash
# h11b_accelerate_healthy: Accelerate custom loop, 2 CPU processes via torchrun, gradient accumulation 2, save_state every 100
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/accok; rm -rf $D; mkdir -p $D; cd $D
$V/torchrun --nproc-per-node 2 --master-port 29625 $G/accel_loop.py --steps 300 --out $D/acc_out > out.log 2>&1
echo "rc=$?" >&2
