#!/bin/bash
# APPLICATION: torch.compile(fullgraph=True) on a model whose forward calls .item() (a data-dependent
# clamp check): dynamo refuses the graph break and the first step raises. (In the kept run dynamo failed
# even earlier, on the DDP wrapper's Logger.set_runtime_stats_and_log call; still a fullgraph=True error.)
CASE=compile_fullgraph_item; . "$(dirname "$0")/common.sh"
$TR $G/loop14.py --steps 200 --compile eager --fullgraph --clip-report --log-every 20 > out.log 2>&1; echo "rc=$?" > rc.txt
