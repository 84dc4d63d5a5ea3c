#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, detectron2-like, --pg-timeout 60; after iteration 700 every process of
# gpu-b29-02 (its torchrun agent and worker) is SIGSTOPped, like a host that froze; rank 0's gloo collective times out.
# Host 2 is SIGCONTed after host 1's torchrun exited, and its agent then stopped by hand.
CASE=n06; PORT=40686; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh; source $G/net29.sh; netdown; netup
(TR2 1 $T --style detectron2 --steps 2400 --log-every 50 --pg-timeout 60 --ckpt-dir ck --ckpt-every 400 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style detectron2 --steps 2400 --log-every 50 --pg-timeout 60 --ckpt-dir ck --ckpt-every 400 >> out.log 2>&1 &)
waitfor "iter: 699 " out.log 400
H2P=$(envpids GLOO_SOCKET_IFNAME=l29bv2; for q in $(agentpids); do tr '\0' '\n' < /proc/$q/environ | grep -qx GLOO_SOCKET_IFNAME=l29bv2 && echo $q; done)
kill -STOP $H2P; log "stopped $H2P"
for i in $(seq 1 200); do A1=$(for q in $(agentpids); do tr '\0' '\n' < /proc/$q/environ | grep -qx GLOO_SOCKET_IFNAME=l29bv1 && echo $q; done); [ -z "$A1" ] && break; sleep 2; done; log "host1 gone"
sleep 5; kill -CONT $H2P; sleep 20; for p in $(agentpids); do kill $p; done; sleep 5; for p in $(mypids); do kill -9 $p; done; netdown
