#!/bin/bash
# (copy of /work/lab31b/lane.sh, the sequential runner used for the cases)
# sequential runner: lane.sh NAME case.sh...
N=$1; shift
for c in "$@"; do echo "=== $c start $(date -u +%T)" >> /work/lab31b/lane-$N.log
  timeout 590 bash /work/wt31b/tests/corpus/heldout31/gen_h31b/$c >> /work/lab31b/lane-$N.log 2>&1
  echo "=== $c end rc=$? $(date -u +%T)" >> /work/lab31b/lane-$N.log; done
