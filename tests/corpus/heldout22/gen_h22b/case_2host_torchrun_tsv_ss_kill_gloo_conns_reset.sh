#!/bin/bash
# two namespace hosts (gpu-r07n11, gpu-r07n12), torchrun 1 proc each, pdsh-like host prefixes, Python-logging + TSV
# rows; after step 600 the established TCP connections between the two hosts' training processes are destroyed from
# gpu-r07n12's side with `ss -K` (the kernel aborts the sockets and sends RSTs), as a flapping switch port/firewall would.
CASE=2host_tsv_ssk; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh; source $G/net22.sh
net_down; net_up
( TR2 1 $T22 --fmt tsv --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400 >> out.log ) &
sleep 1
( TR2 2 $T22 --fmt tsv --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400 >> out.log ) &
waitfor "	600	\|: 600	" out.log 400
ip netns exec l22bh2 ss -tnp > ss_before.txt
ip netns exec l22bh2 ss -K -tn dst 10.222.7.11 and not dport = 29422 > ss_killed.txt; echo "ss -K $(date -u +%T)"
wait; echo exit; net_down
