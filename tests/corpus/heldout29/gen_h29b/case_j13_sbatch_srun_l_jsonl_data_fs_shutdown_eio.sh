#!/bin/bash
# sbatch -N2 + srun --label, JSON lines from both ranks, --read pread from a copy of the data on an ext4 loop fs; after
# step 700 the fs is shut down (EXT4_IOC_SHUTDOWN ioctl, NOLOGFLUSH, from python) -> Errno 5 on the next read.
CASE=j13; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
M=$(mkloop j13 24); cp /work/lab29b/data/feat.bin $M/feat.bin; sync; echo 3 > /proc/sys/vm/drop_caches
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jl-train -N 2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40654 --style jsonl --steps 4000 --log-every 50 --read pread --data $M/feat.bin --eval-every 1000
EOS
sbrun; waitfor '"step": 700, "loss"' jl-train-$J.out 400
python3 -c "import fcntl,os; fd=os.open('$M',os.O_RDONLY); fcntl.ioctl(fd, 0x8004587d, b'\\x02\\x00\\x00\\x00')" && log shutdown
sbdone jl-train-$J.out; rmloop j13
