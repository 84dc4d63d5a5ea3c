#!/bin/bash
# torchrun 2 ranks without CAP_SYS_RESOURCE (setpriv --bounding-set -sys_resource), Gluon/MXNet-style, checkpoints
# (4 MiB padding each) on a 128 MiB ext4 loop fs with user quotas on, root's block hard limit 24 MiB.
CASE=a15; PORT=44615; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
M=$(mkloop a15ck 128 "-O quota -E quotatype=usrquota"); umount $M; mount -o loop,usrquota /work/lab33b/img/a15ck.img $M; quotaon -u $M; setquota -u root 0 24576 0 0 $M; repquota $M | tail -3
(nice -n 10 setpriv --bounding-set -sys_resource $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT $T --style gluon --steps 6000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir $M/params --ckpt-every 500 --ckpt-pad-mb 4 > out.log 2>&1 &)
sleep 5; waitgone 400; repquota $M | tail -3; quotaoff -u $M; rmloop a15ck
