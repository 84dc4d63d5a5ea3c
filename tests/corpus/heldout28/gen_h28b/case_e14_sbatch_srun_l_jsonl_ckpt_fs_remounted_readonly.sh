#!/bin/bash
# sbatch -N2 + srun --label, JSON lines from both ranks, checkpoints every 400 to a 64 MiB ext4 loop fs; after the
# step-400 save the fs is remounted read-only: the step-800 save fails (EROFS).
CASE=e14; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
truncate -s 64M fs.img; mkfs.ext4 -q fs.img; M=/work/lab28b/mnt/e14; mkdir -p $M; mount -o loop fs.img $M; mkdir $M/ck
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jsonl-ck -N 2 -w lab28n1,lab28n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39656 --style jsonl --steps 3000 --log-every 50 --ckpt-dir $M/ck --ckpt-every 400
EOS
sbrun; F=jsonl-ck-$J.out; waitfor '"checkpoint_end", "step": 400' $F 400; sleep 2; mount -o remount,ro $M; log ro
sbdone $F; umount $M
