#!/bin/bash
# sbatch -N2 (lab22n3,lab22n4) --no-requeue, srun --multi-prog (rank 0 also evaluates), key=value lines; after step 600
# an exclusive job in the higher-priority partition `urgent` is submitted to lab22n4 -> the job is preempted.
CASE=sbatch_mp_preempt; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
cat > mp.conf <<EOS
0 nice -n 10 $V/python $T22 --master 127.0.0.1:29626 --fmt kv --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 300 --eval-every 500 --eval-batches 20
1 nice -n 10 $V/python $T22 --master 127.0.0.1:29626 --fmt kv --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 300 --eval-every 500 --eval-batches 20
EOS
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J kv-mp -p batch -N 2 -w lab22n3,lab22n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o slurm-%j.out
echo "job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST start \$(date -u +%FT%TZ)"
srun --multi-prog mp.conf
echo "srun exit \$? at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
waitfor "step=600 " slurm-$J.out 600
U=$(sbatch --parsable -p urgent -w lab22n4 -N1 --mem=500M -J maint-urgent -o urgent-%j.out --wrap "sleep 20"); echo "urgent $U $(date -u +%T)"
sbwait $J; echo done
