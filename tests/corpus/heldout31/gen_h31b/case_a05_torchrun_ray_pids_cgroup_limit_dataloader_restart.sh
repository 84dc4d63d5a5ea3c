#!/bin/bash
# torchrun 2 ranks, Ray-Train-worker style (every line prefixed '(RayTrainWorker pid=.., ip=..)'), 2 DataLoader workers
# per rank re-created every epoch; after step 100 rank 0's training process is moved into a pids cgroup (v1) whose
# pids.max is its current task count + 1 -> the next epoch's worker start fails (can't start new thread / fork).
CASE=a05; PORT=42605; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
(TR $T --style ray --steps 4000 --log-every 50 --workers 2 --ckpt-dir $RUN/ray_results/checkpoints --ckpt-every 500 > out.log 2>&1 &)
waitfor "'step': 100," out.log 300; P=$(rankpid RANK=0); C=/sys/fs/cgroup/pids/l31b_a05; mkdir -p $C
for t in $(ls /proc/$P/task); do echo $t > $C/tasks; done; echo $(( $(cat $C/pids.current) + 1 )) > $C/pids.max; log "pids $P max $(cat $C/pids.max)"
waitgone 300; sleep 2; for p in $(agentpids); do kill $p; done; sleep 2; rmdir $C
