#!/bin/bash
# sbatch -N2 + srun --label, Accelerate-logger style, checkpoints every 400 to an ext4 loop fs that is shut down
# (EXT4_IOC_SHUTDOWN) after the step-400 save -> EIO at the step-800 save.
CASE=b06; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
M=$(mkloop b06 64)
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J acc-ck -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41646 --style accelerate --steps 3000 --log-every 50 --ckpt-dir $M/ck --ckpt-every 400
EOS
sbrun; waitfor "Optimizer state saved in" acc-ck-$J.out 400; sleep 1
python3 -c "import fcntl,os; fd=os.open('$M',os.O_RDONLY); fcntl.ioctl(fd, 0x8004587d, b'\\x02\\x00\\x00\\x00')" && log shutdown
sbdone acc-ck-$J.out; rmloop b06
