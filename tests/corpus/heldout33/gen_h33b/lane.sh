#!/bin/bash
# sequential runner: lane.sh NAME case.sh...
N=$1; shift
for c in "$@"; do echo "=== $c start $(date -u +%T)" >> /work/lab33b/lane-$N.log
  timeout 590 bash /work/wt33b/tests/corpus/heldout33/gen_h33b/$c >> /work/lab33b/lane-$N.log 2>&1
  echo "=== $c end rc=$? $(date -u +%T)" >> /work/lab33b/lane-$N.log; done
