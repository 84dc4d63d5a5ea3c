#!/bin/bash
# torchrun 2 ranks, PaddleNLP-style, FutureWarnings; each checkpoint is also mirrored (best effort) to a 2 MiB tmpfs
# that cannot hold it -> caught Errno 28 warnings; the primary checkpoints and training are unaffected.
CASE=a10; PORT=43610; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
M=/work/lab32b/mnt/a10; mkdir -p $M; umount $M 2>/dev/null; mount -t tmpfs -o size=2m tmpfs $M
TR $T --style paddle --steps 4000 --log-every 50 --eval-every 1000 --ckpt-dir $RUN/checkpoints --ckpt-every 1000 --best-copy $M/best --noisy > out.log 2>&1
df -h $M; umount $M
