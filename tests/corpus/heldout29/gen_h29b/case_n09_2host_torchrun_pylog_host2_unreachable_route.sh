#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Python logging from both ranks, --pg-timeout 60, checkpoints every 400;
# after step 600 gpu-b29-02 gets an 'unreachable' route to gpu-b29-01 (ip route add unreachable 10.229.7.11/32), left
# in place until the run ends.
CASE=n09; PORT=40689; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh; source $G/net29.sh; netdown; netup
(TR2 1 $T --style pylog --steps 2400 --log-every 100 --pg-timeout 60 --ckpt-dir ck --ckpt-every 400 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style pylog --steps 2400 --log-every 100 --pg-timeout 60 --ckpt-dir ck --ckpt-every 400 >> out.log 2>&1 &)
waitfor "step 600/" out.log 400; ip -n l29bh2 route add unreachable 10.229.7.11/32; log unreachable
workers() { for p in $(mypids); do tr "\0" " " < /proc/$p/cmdline 2>/dev/null | grep -q torch.distributed.run || echo $p; done; }
for i in $(seq 1 200); do [ -z "$(workers)" ] && break; sleep 2; done; log "workers gone"
sleep 40; for p in $(agentpids); do kill $p; done; sleep 5; for p in $(mypids); do kill -9 $p; done; sleep 2; netdown
