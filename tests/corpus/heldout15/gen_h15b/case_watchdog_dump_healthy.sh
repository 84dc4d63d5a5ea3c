#!/bin/bash
# NONE: faulthandler.dump_traceback_later(15 s) armed every step; after the step-200 row rank 1 is stopped (SIGSTOP) for 25 s and
# continued, so the watchdog dumps the stacks (rank 0 in the all-reduce), then training goes on to the end. torchrun, CSV.
CASE=watchdog_dump_healthy; source "$(dirname "$0")/common.sh"
$TR $G/t15.py --data $DATA --hidden 192 --steps 600 --log-every 20 --watchdog 15 > out.log 2>&1 &
waitfor "^200," out.log 150 && P=$(rankpid t15.py 1) && kill -STOP $P && sleep 25 && kill -CONT $P
wait %1
echo "exit=$?" >&2
