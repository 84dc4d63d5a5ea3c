#!/bin/bash
# sbatch -N2 + srun --label, MMEngine-like; after iteration 600 task 1 (rank 1) goes into a cgroup-v1 cpu group with a
# 10% CFS quota until the run ends.
CASE=j08; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J mm-train -N 2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "nodes: \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40649 --style mmengine --steps 1500 --log-every 50 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "Iter(train) \[ 600/" mm-train-$J.out 400; P=$(rankpid SLURM_PROCID=1); C=/sys/fs/cgroup/cpu/l29b_j08; mkdir -p $C
echo 100000 > $C/cpu.cfs_period_us; echo 10000 > $C/cpu.cfs_quota_us; for t in $(ls /proc/$P/task); do echo $t > $C/tasks; done; log "quota $P"
sbdone mm-train-$J.out; sleep 2; rmdir $C
