#!/bin/bash
# torchrun 2 ranks, stable-baselines3-style tables, features read with open()+read() per sample from an ext4 loop fs:
# after iteration 12 the data fs is lazily unmounted (umount -l) -> FileNotFoundError on the feature file.
CASE=a12; PORT=44612; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
M=$(mkloop a12data 40); cp /work/lab33b/data/feat.bin $M/feat.bin
(TR $T --style sb3 --data $M/feat.bin --read open --steps 4000 --log-every 100 --ckpt-dir models --ckpt-every 1000 > out.log 2>&1 &)
waitfor "iterations *| 12 " out.log 300; umount -l $M; log umount
waitgone 200; rm -f /work/lab33b/img/a12data.img
