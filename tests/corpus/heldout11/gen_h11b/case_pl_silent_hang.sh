#!/bin/bash
# h11b_pl_sigstop_silent_hang: Lightning DDP (2 CPU ranks, default 30 min gloo timeout); rank 1 SIGSTOPped 25 s in;
# after ~100 s of silence the job is ended as scancel does it (SIGCONT+SIGTERM to every process, SIGKILL 30 s later).
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/plhang; rm -rf $D; mkdir -p $D; cd $D
setsid $V/python $G/pl_lm.py --data /work/lab11b/tokens.bin --max-steps 5000 --ckpt-every 100 --progress 20 --out $D/pl_out > out.log 2>&1 &
MAIN=$!
sleep 25
R1=""; for c in $(pgrep -P $MAIN); do tr '\0' '\n' < /proc/$c/environ | grep -qx LOCAL_RANK=1 && R1=$c; done
echo "main $MAIN rank1 $R1" >&2; kill -STOP $R1; date -u +%T >&2
sleep 100
PG=$(ps -o pgid= $MAIN | tr -d ' '); date -u +%T >&2
kill -CONT -- -$PG; kill -TERM -- -$PG
sleep 30; kill -KILL -- -$PG 2>/dev/null
wait $MAIN; echo "rc=$?" >&2
