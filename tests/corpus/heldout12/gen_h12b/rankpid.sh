#!/bin/bash
# pid of the newest torchrun worker whose environment has RANK=$1 (and runs $2, default titan_lite.py)
for p in $(pgrep -f "${2:-titan_lite.py}"); do
  if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "RANK=$1"; then echo $p; fi
done | tail -1
