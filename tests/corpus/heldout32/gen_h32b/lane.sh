#!/bin/bash
# sequential runner: lane.sh NAME case.sh...
N=$1; shift
for c in "$@"; do echo "=== $c start $(date -u +%T)" >> /work/lab32b/lane-$N.log
  timeout 590 bash /work/wt32b/tests/corpus/heldout32/gen_h32b/$c >> /work/lab32b/lane-$N.log 2>&1
  echo "=== $c end rc=$? $(date -u +%T)" >> /work/lab32b/lane-$N.log; done
