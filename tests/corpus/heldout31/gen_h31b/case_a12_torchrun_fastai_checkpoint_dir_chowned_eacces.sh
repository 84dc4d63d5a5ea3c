#!/bin/bash
# torchrun 2 ranks without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH (setpriv bounding set, so root obeys file modes like a
# normal user), fastai-style; SaveModelCallback-like saves every 600 steps to models/; after model_1200.pth the
# directory is chowned to another user with mode 755 -> PermissionError [Errno 13] at the next save.
CASE=a12; PORT=42612; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
(setpriv --bounding-set -dac_override,-dac_read_search nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT $T --style fastai --steps 6000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir models --ckpt-every 600 > out.log 2>&1 &)
for i in $(seq 1 400); do [ -e models/model_1200.pth ] && break; sleep 1; done; sleep 1; chown nobody:nogroup models; chmod 755 models; log "chowned $(ls -ld models)"
waitgone 300
