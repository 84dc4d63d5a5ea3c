#!/bin/bash
# torchrun 2 ranks, SpeechBrain-style, 2 persistent DataLoader workers per rank (pg timeout 1800 s); in epoch 5 both of
# rank 0's workers are SIGSTOPped (rank 0 waits for a batch forever, rank 1 in allreduce); kept.log after 150 s quiet.
CASE=a05; PORT=43605; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
(TR $T --style speechbrain --steps 6000 --epoch-steps 300 --log-every 50 --workers 2 --persistent --eval-every 1 --ckpt-dir results/mlp48 --ckpt-every 600 > out.log 2>&1 &)
waitfor "Going into epoch 5" out.log 400; sleep 3; P0=$(rankpid RANK=0); WK=$(workerpids $P0); kill -STOP $WK; log "stopped $WK of $P0"
sleep 5; while [ $(quiet out.log) -lt 150 ]; do sleep 1; done; log "quiet $(quiet out.log)"; cp out.log kept.log
for p in $(agentpids); do kill $p; done; sleep 5; kill -CONT $WK; waitgone 60 || kill -9 $(mypids)
