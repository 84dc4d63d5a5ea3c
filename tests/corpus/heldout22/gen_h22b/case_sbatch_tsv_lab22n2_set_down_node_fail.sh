#!/bin/bash
# sbatch -N2 (lab22n1,lab22n2), srun, Python-logging + tab-separated metrics; after step 800 an admin/health check
# sets lab22n2 DOWN (`scontrol update nodename=lab22n2 state=down reason=...`) under the running job.
CASE=sbatch_tsv_down; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tsv-lm -N 2 -w lab22n1,lab22n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o slurm-%j.out
echo "job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST start \$(date -u +%FT%TZ)"
srun nice -n 10 $V/python $T22 --master 127.0.0.1:29625 --fmt tsv --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400
echo "srun exit \$? at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
waitfor "^800	" slurm-$J.out 600
scontrol update nodename=lab22n2 state=down reason="hc: memory ECC threshold"; echo "down $(date -u +%T)"
sbwait $J; scontrol update nodename=lab22n2 state=resume; sinfo; echo done
