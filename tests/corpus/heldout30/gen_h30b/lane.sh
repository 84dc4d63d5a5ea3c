#!/bin/bash
# (copy of /work/lab30b/lane.sh, the sequential runner used for the cases)
# sequential runner: lane.sh NAME case.sh...
N=$1; shift
for c in "$@"; do echo "=== $c start $(date -u +%T)" >> /work/lab30b/lane-$N.log
  timeout 560 bash /work/wt30b/tests/corpus/heldout30/gen_h30b/$c >> /work/lab30b/lane-$N.log 2>&1
  echo "=== $c end rc=$? $(date -u +%T)" >> /work/lab30b/lane-$N.log; done
