#!/bin/bash
# h11b_elastic_restarts_exhausted: torchrun --max-restarts 2; the RANK=1 worker is SIGKILLed ~10 s into each attempt
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/elastic; rm -rf $D; mkdir -p $D; cd $D
$V/torchrun --nproc-per-node 2 --max-restarts 2 --master-port 29614 $G/train_lm.py --data /work/lab11b/tokens.bin \
  --steps 3000 --log-every 20 --save-every 100 > out.log 2>&1 &
TR=$!
killed=""
while kill -0 $TR 2>/dev/null; do
  R1=$($G/rankpid.sh $TR 1)
  if [ -n "$R1" ] && ! echo "$killed" | grep -qw "$R1"; then
    sleep 22; kill -9 $R1 && echo "SIGKILL rank1 pid $R1" >&2; killed="$killed $R1"
  fi
  sleep 1
done
wait $TR; echo "rc=$?" >&2
