#!/bin/bash
# Healthy, resumed: srun-style launch resuming from checkpoints of a first (complete) 300-step run;
# in the resumed run rank 0 (the TCPStore host) starts 20 s after rank 1, so rank 1's store client
# retries connecting (silently, as it turned out: torch prints nothing at the default log level)
# before the job runs normally to step 700. out.log holds only the resumed run (first_*.log the first).
CASE=srun_late_store_resume; . "$(dirname "$0")/common.sh"
R="$V/python -u $G/lm13.py --log-every 50 --ckpt-every 150 --resume"
for r in 0 1; do MASTER_ADDR=127.0.0.1 MASTER_PORT=29683 RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 nice -n 10 $R --steps 300 > first_$r.log 2>&1 & done; wait
for r in 1 0; do MASTER_ADDR=127.0.0.1 MASTER_PORT=29683 RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 nice -n 10 $R --steps 700 >> out.log 2>&1 &
  [ $r = 1 ] && sleep 20; done; wait; echo "done" > rc.txt
