#!/bin/bash
# sbatch -N3 (lab29n2-lab29n4) --no-requeue + srun --kill-on-bad-exit=1 --label, detectron2-like, checkpoints every
# 400; after iteration 800 lab29n3's slurmd is SIGKILLed: slurmctld (SlurmdTimeout=20) sets it DOWN, job NODE_FAIL.
CASE=j02; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J d2-tab -N 3 -w lab29n[2-4] --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST"
srun --kill-on-bad-exit=1 --label nice -n 10 $V/python $T --master 127.0.0.1:40642 --style detectron2 --steps 6000 --log-every 50 --ckpt-dir ck --ckpt-every 400
EOS
sbrun; waitfor "iter: 799 " d2-tab-$J.out 400
SP=$(cat /work/lab29b/slurm/slurmd-lab29n3.pid); kill -KILL $SP; log "slurmd lab29n3 $SP killed"
sbdone d2-tab-$J.out; sleep 5; for p in $(mypids); do kill -9 $p; done; slurmd -N lab29n3; sleep 5; scontrol update nodename=lab29n3 state=resume; sinfo
