#!/bin/bash
# torchrun 2 ranks, JSON metric lines with tokens_per_sec; after step ~1000 the whole job (torchrun agent and both
# ranks) is moved into a cgroup-v1 cpu group with cpu.cfs_quota_us=30000 per 100000 (0.3 CPU for the job) to the end.
# (A first version of this case started four busy loops beside the job instead; under this VM's load they had no
# visible effect and that log was not kept.)
CASE=c14; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt json --steps 2600 --log-every 100 --eval-every 1000 --ckpt-dir ck --ckpt-every 1000 > out.log 2>&1 &
TRP=$!
waitfor '"step": 1000,' out.log; CG=/sys/fs/cgroup/cpu/l24b_c14; mkdir -p $CG
echo 100000 > $CG/cpu.cfs_period_us; echo 30000 > $CG/cpu.cfs_quota_us
for p in $(pgrep -f "t24.py") ; do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] && echo $p > $CG/cgroup.procs; done; echo "quota $(cat $CG/cgroup.procs | tr '\n' ' ') $(date -u +%T)"
# at step ~1400 the quota was lowered by hand from the terminal to 8000 (0.08 CPU), the effect of 0.3 CPU being small
# under this VM's load: echo 8000 > $CG/cpu.cfs_quota_us
wait $TRP; echo "exit=$?"; sleep 1; rmdir $CG
