#!/bin/bash
# sbatch -N2, srun --label, DeepSpeed-style; a first job trains 600 steps with --hidden 512 and saves checkpoints (not
# kept); the relaunch (kept) resumes from the same directory with --hidden 768 (the config was edited between runs):
# load_state_dict fails with size mismatches.
CASE=c22; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
mk() { cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-tabular -N 2 -w lab25n1,lab25n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T25 --master 127.0.0.1:2972$1 --style ds --steps $2 --log-every 100 --ckpt-dir ck --ckpt-every 300 --resume --hidden $3
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
}
mk 1 600 512; sbrun; sbdone ds-tabular-$J.out; mv out.log first.log
mk 2 3000 768; sbrun; sbdone ds-tabular-$J.out
