#!/bin/bash
# wait until out.log shows a line matching $1 (max $2 s)
for i in $(seq 1 $((${2:-120}*5))); do grep -q -- "$1" out.log 2>/dev/null && exit 0; sleep 0.2; done; exit 1
