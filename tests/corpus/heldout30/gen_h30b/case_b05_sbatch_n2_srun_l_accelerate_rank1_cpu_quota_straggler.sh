#!/bin/bash
# sbatch -N2 + srun --label, Accelerate-logger style; after step 600 task 1 goes into a cgroup-v1 cpu group with a 10%
# CFS quota until the run ends.
CASE=b05; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J acc-q -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41645 --style accelerate --steps 1400 --log-every 50 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "step 600:" acc-q-$J.out 400; P=$(rankpid SLURM_PROCID=1); C=/sys/fs/cgroup/cpu/l30b_b05; mkdir -p $C
echo 100000 > $C/cpu.cfs_period_us; echo 10000 > $C/cpu.cfs_quota_us; for t in $(ls /proc/$P/task); do echo $t > $C/tasks; done; log "quota $P"
sbdone acc-q-$J.out; sleep 2; rmdir $C
