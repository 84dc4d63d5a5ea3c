#!/bin/bash
# STRAGGLER: HF Trainer (log dicts via PrinterCallback, plus samples_per_second/step_time_ms from a callback). After the
# 12th log dict (step 300), rank 1 is throttled for the rest of the run by a SIGSTOP/SIGCONT duty cycle (stopped 0.15 s,
# running 0.10 s), as a CPU-limiting agent (cpulimit-style) on its node would do.
CASE=hf_stopcont; source "$(dirname "$0")/common.sh"
$TR $G/hf16.py --steps 750 --log-steps 25 > out.log 2>&1 & L=$!
for i in $(seq 1 200); do [ "$(grep -c "^{'loss'" out.log)" -ge 12 ] && break; sleep 1; done
P1=$(rankpid hf16.py 1)
( while kill -0 $P1 2>/dev/null; do kill -STOP $P1; sleep 0.15; kill -CONT $P1; sleep 0.10; done ) & C=$!
wait $L; echo "exit=$?" >&2
kill $C 2>/dev/null
