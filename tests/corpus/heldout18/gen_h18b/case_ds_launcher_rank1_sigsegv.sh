#!/bin/bash
# UNKNOWN: DeepSpeed ZeRO-2 on the CPU accelerator with the `deepspeed --num_gpus 2` launcher (gloo), DeepSpeed INFO
# logging and JSON-lines metrics, checkpoint every 100 steps. After the step-250 metrics line, rank 1 receives SIGSEGV
# (kill -SEGV), standing in for a segfault inside a native extension.
CASE=ds_sigsegv; source "$(dirname "$0")/common.sh"
export DS_ACCELERATOR=cpu
nice -n 10 $V/deepspeed --num_gpus 2 $G/ds18.py --steps 600 --print-every 25 --save-every 100 --save-dir $RUN/ckpt > out.log 2>&1 & L=$!
waitfor '"step": 250,' out.log 600
P=$(envpids "ds18.py" RANK=1); echo "rank1 $P" >&2; kill -SEGV $P
wait $L; echo "exit=$?" >&2
