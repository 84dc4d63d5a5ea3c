#!/bin/bash
# torchrun 2 ranks, Megatron-like, checkpoints every 500 with 4 MiB of padding; the launch runs under 'ulimit -f 6144'
# (a 6 MiB per-file size limit, like a quota on file size): the first checkpoint write fails with EFBIG (Errno 27).
CASE=k05; PORT=40605; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
ulimit -f 6144; TR $T --style megatron --steps 2400 --log-every 50 --ckpt-dir ck --ckpt-every 500 --ckpt-pad-mb 4 > out.log 2>&1
