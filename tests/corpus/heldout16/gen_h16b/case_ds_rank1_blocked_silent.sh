#!/bin/bash
# HANG (silent): DeepSpeed ZeRO-1 on the CPU accelerator (deepspeed launcher). Rank 1 blocks forever (sleep loop)
# before step 120, as if stuck on a data read. Rank 0 waits in DeepSpeed's CPU collective, which has no timeout:
# nothing more is printed. The log is copied after 150 s of silence (while the job still runs), then the job is killed.
CASE=ds_blocked_silent; source "$(dirname "$0")/common.sh"
export DS_ACCELERATOR=cpu
setsid nice -n 10 $V/deepspeed --num_gpus 2 $G/ds16.py --steps 400 --print-every 20 --block-at 120 --timeout 60 > out.log 2>&1 & L=$!
waitfor "global_step=100," out.log 200
sleep 150
cp out.log out_at_150s_silence.log; ls -l --time-style=full-iso out.log >&2; date >&2
kill -- -$L; wait $L; echo "exit=$?" >&2
