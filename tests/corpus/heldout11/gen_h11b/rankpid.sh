#!/bin/bash
# rankpid.sh <ancestor-pid> <rank>: pid of the torchrun worker with RANK=<rank> under <ancestor-pid>
anc=$1; want=$2
for p in $(pgrep -P "$anc"); do
  for c in $p $(pgrep -P $p); do
    if tr '\0' '\n' < /proc/$c/environ 2>/dev/null | grep -qx "RANK=$want"; then
      if tr '\0' '\n' < /proc/$c/environ | grep -q '^LOCAL_RANK='; then echo $c; exit 0; fi
    fi
  done
done
exit 1
