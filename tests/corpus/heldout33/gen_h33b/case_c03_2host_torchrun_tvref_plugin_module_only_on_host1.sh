#!/bin/bash
# two namespace hosts, torchvision-references-style, --pg-timeout 60, '--plugin lab_metrics_hook': the module exists
# only in gpu-b33-01's PYTHONPATH (a site dir set up on host 1 only) -> ModuleNotFoundError on gpu-b33-02.
CASE=c03; PORT=44683; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
mkdir -p site1; printf 'import os\nHOOK = "metrics hook loaded"\n' > site1/lab_metrics_hook.py
EXTRA_ENV="PYTHONPATH=$RUN/site1"; (TR2 1 $T --style tvref --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --pg-timeout 60 --plugin lab_metrics_hook >> out.log 2>&1 &)
sleep 2; EXTRA_ENV=""; (TR2 2 $T --style tvref --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --pg-timeout 60 --plugin lab_metrics_hook >> out.log 2>&1 &)
sleep 20; waitgone 300; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
