#!/bin/bash
# two namespace hosts, torchrun --tee 3 (lines prefixed [default0]:), fairseq-style; from num_updates ~800 the veth
# link is rate-limited: `tc qdisc add dev l23bv1 root tbf rate 300mbit burst 1mb latency 100ms` (the same on l23bv2;
# this kernel has no netem): every all-reduce of the 9.5 MB gradients slows down, for the rest of the run.
CASE=c05; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh; source $G/net23.sh
netdown; netup
(TR2 1 $T23 --fmt fseq --steps 1600 --epoch-steps 400 --log-every 50 --ckpt-dir ck --ckpt-every 400 --resume >> out.log 2>&1 &)
sleep 1; (TR2 2 $T23 --fmt fseq --steps 1600 --epoch-steps 400 --log-every 50 --ckpt-dir ck2 --ckpt-every 400 --resume >> out.log 2>&1 &)
waitfor "num_updates=800," out.log 300
ip netns exec l23bh1 tc qdisc add dev l23bv1 root tbf rate 300mbit burst 1mb latency 100ms; ip netns exec l23bh2 tc qdisc add dev l23bv2 root tbf rate 300mbit burst 1mb latency 100ms; echo "tbf $(date -u +%T)"
waitfor "done training" out.log 400; sleep 5; cp out.log kept.log
netdown
