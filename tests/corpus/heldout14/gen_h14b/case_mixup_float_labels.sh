#!/bin/bash
# APPLICATION: srun -l style launch; from step 120 a 'mixup' path feeds float soft labels to nn.Embedding
# (which needs Long indices): both ranks raise a dtype error mid-run.
CASE=mixup_float_labels; . "$(dirname "$0")/common.sh"
srunl $G/loop14.py --steps 300 --mixup-from 120 --log-every 20 --ckpt-every 100; echo "rc=$?" > rc.txt
