#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Python logging from both ranks; after step 800 every TCP socket of the
# rank on host 2 is destroyed with 'ss -K' (run in host 2's namespace), as a switch reset would.
CASE=c09; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh; source $G/net27.sh; netdown; netup
(TR2 1 $T --style pylog --steps 2400 --log-every 100 --pg-timeout 120 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style pylog --steps 2400 --log-every 100 --pg-timeout 120 >> out.log 2>&1 &)
waitfor "step 800/" out.log 400; ip netns exec l27bh2 ss -K dst 10.227.7.11 >/dev/null; log "ss -K"
waitgone 300; sleep 3; netdown
