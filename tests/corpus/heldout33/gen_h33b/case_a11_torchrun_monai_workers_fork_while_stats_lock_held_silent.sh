#!/bin/bash
# torchrun 2 ranks, MONAI-style, 2 (non-persistent) DataLoader workers per rank: from step 650 a stats thread holds a
# lock that the workers' __getitem__ also takes; workers forked at the next epoch inherit it locked -> every rank waits
# for batches forever (pg timeout 1800 s); kept.log after 150 s of silence.
CASE=a11; PORT=44611; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style monai --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --workers 2 --ckpt-dir runs --ckpt-every 300 --fork-lock-at 650 > out.log 2>&1 &)
waitfor "Iter: 50/300" out.log 200; waitfor "Epoch: 3/10, Iter: 50/" out.log 300; sleep 5
while [ $(quiet out.log) -lt 150 ]; do sleep 1; if [ -z "$(mypids)" ]; then break; fi; done; log "quiet $(quiet out.log)"; cp out.log kept.log
for p in $(agentpids); do kill $p; done; waitgone 60 || kill -9 $(mypids)
