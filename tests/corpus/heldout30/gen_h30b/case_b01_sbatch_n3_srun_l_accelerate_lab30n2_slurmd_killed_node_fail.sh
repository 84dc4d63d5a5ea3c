#!/bin/bash
# sbatch -N3 (lab30n1-lab30n3) --no-requeue + srun --label, Accelerate-logger style, checkpoints every 400; after step
# 800 lab30n2's slurmd is SIGKILLed -> slurmctld (SlurmdTimeout=20) sets it DOWN, NODE_FAIL.
CASE=b01; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J acc-tab -N 3 -w lab30n[1-3] --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41641 --style accelerate --steps 8000 --log-every 50 --ckpt-dir ck --ckpt-every 400
EOS
sbrun; waitfor "step 800:" acc-tab-$J.out 400
SP=$(cat /work/lab30b/slurm/slurmd-lab30n2.pid); kill -KILL $SP; log "slurmd lab30n2 $SP killed"
sbdone acc-tab-$J.out; sleep 3; for p in $(mypids); do kill -9 $p; done; slurmd -N lab30n2; sleep 5; scontrol update nodename=lab30n2 state=resume; sinfo
