#!/bin/bash
# two namespace hosts (gpu-b28-01/02), torchrun --nnodes 2, fairseq-like; after update 800 every TCP socket between the
# hosts is destroyed with 'ss -K' in host 1's namespace (as a switch/firewall reset would).
CASE=f01; PORT=39681; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh; source $G/net28.sh; netdown; netup
(TR2 1 $T --style fairseq --steps 2400 --log-every 50 --pg-timeout 120 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style fairseq --steps 2400 --log-every 50 --pg-timeout 120 >> out.log 2>&1 &)
waitfor "num_updates=800," out.log 400; ip netns exec l28bh1 ss -K dst 10.228.7.12 >/dev/null; ip netns exec l28bh1 ss -K src 10.228.7.11 dst 10.228.7.12 > /dev/null; log "ss -K"
waitgone 300; sleep 3; for p in $(agentpids); do kill $p; done; sleep 2; netdown
