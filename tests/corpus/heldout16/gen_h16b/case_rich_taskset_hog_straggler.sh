#!/bin/bash
# STRAGGLER: rich-formatted log (RichHandler). After the step-400 row, rank 1 is pinned to CPU 1 (rank 0 to CPU 0) and
# three CPU hogs (`sha256sum /dev/zero`) pinned to CPU 1 start, so rank 1 gets about a quarter of a core for the rest of
# the run; the hogs are killed when the run ends.
CASE=rich_taskset_hog; source "$(dirname "$0")/common.sh"
$TR $G/t16.py --fmt rich --hidden 256 --steps 1000 --log-every 50 > out.log 2>&1 & L=$!
waitfor "step=400 " out.log 200
P0=$(rankpid t16.py 0); P1=$(rankpid t16.py 1)
taskset -a -p -c 0 $P0 >/dev/null; taskset -a -p -c 1 $P1 >/dev/null
H=""; for i in 1 2 3; do taskset -c 1 sha256sum /dev/zero & H="$H $!"; done
wait $L; echo "exit=$?" >&2
kill $H
