#!/bin/bash
# pid of the newest lm13.py process whose environment has RANK=$1; with $2=worker, one of its
# DataLoader workers (a process whose parent also has RANK set) instead of the rank's main process
for p in $(pgrep -f "lm13.py"); do
  tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "RANK=$1" || continue
  pp=$(awk '{print $4}' /proc/$p/stat)
  if tr '\0' '\n' < /proc/$pp/environ 2>/dev/null | grep -q "^RANK="; then w=1; else w=0; fi
  if [ "${2:-}" = worker ]; then [ $w = 1 ] && echo $p; else [ $w = 0 ] && echo $p; fi
done | tail -1
