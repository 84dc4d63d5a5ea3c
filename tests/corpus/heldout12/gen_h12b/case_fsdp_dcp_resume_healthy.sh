#!/bin/bash
# A first FSDP2 run (not kept) trains 40 steps with DCP saves at 20 and 40; the kept log is the
# resumed run: same command with --steps 100, which loads step-40 and trains to 100, saving every 20.
CASE=fsdp_dcp_resume_healthy; . "$(dirname "$0")/common.sh"
$TITAN --steps 40 --log-freq 10 --ckpt-interval 20 --ckpt-folder ckpt > first.log 2>&1
$TITAN --steps 100 --log-freq 10 --ckpt-interval 20 --ckpt-folder ckpt > out.log 2>&1
echo "rc=$?" > rc.txt
