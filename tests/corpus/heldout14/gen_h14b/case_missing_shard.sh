#!/bin/bash
# APPLICATION: the data config lists 3 shards but shard 2 (named in the config) was never written;
# samples switch shard every 8192 indices, so DataLoader workers hit the missing file around step 256.
CASE=missing_shard; . "$(dirname "$0")/common.sh"
mkdir -p data; head -c 8192 /dev/urandom > data/train-00000-of-00003.bin; head -c 8192 /dev/urandom > data/train-00001-of-00003.bin
echo '{"root": "'$RUN'/data", "shards": ["train-00000-of-00003.bin", "train-00001-of-00003.bin", "train-00002-of-00003.bin"]}' > data.json
$TR $G/loop14.py --steps 400 --data-config data.json --workers 2 --log-every 25 > out.log 2>&1; echo "rc=$?" > rc.txt
