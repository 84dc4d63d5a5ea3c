#!/bin/bash
# NONE: srun (interactive-style, from the shell, no sbatch) 2 tasks on lab18n[1-2] (--ntasks-per-node=1), Lightning
# SLURMEnvironment, ddp on gloo, TQDM bar, CSVLogger, checkpoint every 100 steps. The dataset's reads fail now and then
# with ETIMEDOUT (simulated in pl18.py --flaky-reads 0.002, as an NFS mount's transient timeouts) and are retried after
# 0.5 s; each retry is logged as a WARNING. Nothing else injected; 400 steps.
CASE=srun_pl_healthy; source "$(dirname "$0")/common.sh"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29634
srun -J pl-lm -N 2 --ntasks-per-node=1 --mem=1500M -u $V/python $G/pl18.py --num-nodes 2 --steps 400 --out $RUN/ckpt \
  --ckpt-every 100 --flaky-reads 0.002 > out.log 2>&1; echo "exit=$?" >&2
