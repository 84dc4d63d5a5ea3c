#!/bin/bash
# Scheduler-style end: the whole process group gets SIGTERM 35 s in and SIGKILL 20 s later
# (as slurmstepd does at a time limit with KillWait=20). The script defers SIGTERM to its next
# checkpoint interval (every 1000 steps; the kept h12b_fsdp_sigterm_deferred_then_sigkill.log was made with 200), which it does not reach within the grace period.
# Note: torchrun starts its workers in their own sessions, so the group signals reach torchrun
# only; torchrun forwarded SIGTERM to the workers itself, and after torchrun's SIGKILL the
# orphaned workers (whose output torchrun had been relaying) were killed by hand afterwards.
CASE=sched_kill_after_term; . "$(dirname "$0")/common.sh"
setsid $TITAN --steps 2000 --log-freq 10 --ckpt-interval 1000 --ckpt-folder ckpt --sigterm-at-ckpt > out.log 2>&1 &
sleep 1; PG=$(ps -o pgid= -p $! | tr -d ' ')
sleep 35; kill -TERM -- -$PG; sleep 20; kill -KILL -- -$PG
wait; echo "pgid=$PG" > rc.txt
