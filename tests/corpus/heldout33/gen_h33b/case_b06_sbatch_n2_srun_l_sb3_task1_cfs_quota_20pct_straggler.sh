#!/bin/bash
# sbatch -N2 + srun --label, stable-baselines3-style tables: after iteration 10 task 1 moved into a cgroup-v1 cpu group with cfs_quota 20 ms per 100 ms, to the end.
CASE=b06; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ppo-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out 

srun --label nice -n 10 $V/python $T --master 127.0.0.1:44656 --style sb3 --steps 4000 --log-every 100 --ckpt-dir $RUN/models --ckpt-every 1000
EOS
sbrun; waitfor "iterations *| 10 " ppo-mlp-$J.out 400; C=/sys/fs/cgroup/cpu/lab33b_b06; mkdir -p $C; echo 100000 > $C/cpu.cfs_period_us; echo 20000 > $C/cpu.cfs_quota_us; P1=$(rankpid SLURM_PROCID=1); for p in $P1; do for t in $(ls /proc/$p/task); do echo $t > $C/tasks; done; done; log "quota $P1"; sbdone ppo-mlp-$J.out; rmdir $C
