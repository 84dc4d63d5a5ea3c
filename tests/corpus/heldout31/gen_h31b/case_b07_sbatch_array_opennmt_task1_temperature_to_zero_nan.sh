#!/bin/bash
# sbatch --array=0-1 (-N1 -n2 each) + srun --label, OpenNMT-py-style sweep; task 1's config anneals the logit
# temperature to 0 at step 2500 (a config error) -> inf/nan loss -> FloatingPointError; task 0 (no annealing) completes.
CASE=b07; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J onmt-sweep --array=0-1 -N 1 -n 2 --mem=1200M --no-requeue -o %x-%A_%a.out
ANNEAL=(0 2500)
echo "sweep task \$SLURM_ARRAY_TASK_ID: temp_anneal_to=\${ANNEAL[\$SLURM_ARRAY_TASK_ID]} on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:\$((42647 + SLURM_ARRAY_TASK_ID)) --style opennmt --steps 4000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/models\$SLURM_ARRAY_TASK_ID --ckpt-every 1000 --temp-anneal-to \${ANNEAL[\$SLURM_ARRAY_TASK_ID]}
EOS
sbrun; sbdone onmt-sweep-${J}_1.out; cp onmt-sweep-${J}_0.out out0.log
