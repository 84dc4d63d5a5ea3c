#!/bin/bash
# HANG (silence): the token file is truncated under the running job (staging job rewrites it);
# the dataset's wait-for-complete-file loop waits forever without logging; kept silent 120 s, then killed.
CASE=silent_short_read_wait; . "$(dirname "$0")/common.sh"
$TR $G/lm13.py --steps 3000 --log-every 50 --wait-short-read > out.log 2>&1 & L=$!
$G/waitstep.sh "step   300/" 120 && truncate -s $((340*16*65*2)) tokens.bin
sleep 125; A=$(pgrep -f "torchrun.*lm13" | head -1); W=$(pgrep -P $A)
kill -KILL $A $W; wait $L; echo "rc=$? killed after 125 s of silence" > rc.txt
