#!/bin/bash
# torchrun 2 ranks, GPT-NeoX-style, --resume: the latest checkpoint (global_step1000) holds only the model weights
# (an export written by a conversion script, no optimizer state) -> KeyError at load on both ranks.
CASE=a16; PORT=44616; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
mkdir -p checkpoints/global_step1000
$V/python - <<'PY'
import sys, torch; sys.argv = ["t33"]
import torch.nn as nn
m = nn.ModuleDict(dict(inp=nn.Linear(48, 512), mid=nn.Linear(512, 512), out=nn.Linear(512, 10), norm=nn.LayerNorm(512)))
torch.save({"model": m.state_dict(), "step": 1000}, "checkpoints/global_step1000/mp_rank_00_model_states.pt")
PY
(TR $T --style neox --steps 4000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir checkpoints --ckpt-every 1000 --resume > out.log 2>&1 &)
sleep 5; waitgone 200
