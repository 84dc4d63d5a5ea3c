#!/bin/bash
# torchrun 2 ranks, Keras-like epoch lines; from step 900 a "stage 2" curriculum maps labels through a coarse class
# map that lacks class 9 -> KeyError: 9 (a program bug).
CASE=d01; PORT=39601; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
TR $T --style keras --steps 2400 --epoch-steps 200 --eval-every 400 --ckpt-dir ck --ckpt-every 400 --curriculum-at 900 > out.log 2>&1
