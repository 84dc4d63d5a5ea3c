#!/bin/bash
# NONE: srun -l style; rank 0 pushes metrics to an HTTP endpoint that is down (127.0.0.1:9, connection
# refused) and retries 3 times before giving up, every log interval (in a background thread); training itself is unaffected.
CASE=metrics_retry_healthy; . "$(dirname "$0")/common.sh"
srunl $G/loop14.py --steps 400 --metrics-url http://127.0.0.1:9/api/v1/push --log-every 50 --eval-every 200 --ckpt-every 200; echo "rc=$?" > rc.txt
