#!/bin/bash
# sbatch -N2 (lab22n3,lab22n4), srun --kill-on-bad-exit=1, key=value lines; at step 600 rank 0 waits in dist.recv for
# rank 1's eval stats that rank 1 never sends (the program's send condition is wrong): gloo timeout 60 s.
CASE=sbatch_kv_handshake; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J kv-lm -N 2 -w lab22n3,lab22n4 --ntasks-per-node=1 --mem=1500M -o slurm-%j.out
echo "job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST start \$(date -u +%FT%TZ)"
srun --kill-on-bad-exit=1 nice -n 10 $V/python $T22 --master 127.0.0.1:29623 --fmt kv --steps 1500 --log-every 50 --pg-timeout 60 --eval-handshake-bug 600 --ckpt-dir ck --ckpt-every 300
rc=\$?; echo "srun exit \$rc at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
sbwait $J; echo done
