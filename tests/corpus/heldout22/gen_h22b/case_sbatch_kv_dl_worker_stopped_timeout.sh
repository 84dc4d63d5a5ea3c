#!/bin/bash
# sbatch -N2 (lab22n1,lab22n2), srun -l, key=value lines, 1 DataLoader worker per rank with timeout=45 s; after step
# 500 rank 1's DataLoader worker process (on lab22n2) is SIGSTOPped -> rank 1's next batch never comes.
CASE=sbatch_kv_dltimeout; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J kv-dl -N 2 -w lab22n1,lab22n2 --ntasks-per-node=1 --mem=1500M -o slurm-%j.out
echo "job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST start \$(date -u +%FT%TZ)"
srun -l nice -n 10 $V/python $T22 --master 127.0.0.1:29628 --fmt kv --steps 2000 --log-every 50 --workers 1 --dl-timeout 45 --ckpt-dir ck --ckpt-every 250
echo "srun exit \$? at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
waitfor "step=500 " slurm-$J.out 600
R1=$(envpids t22.py SLURM_PROCID=1 | head -1); for c in $(pgrep -P $R1); do kill -STOP $c; echo "stopped worker $c of $R1 $(date -u +%T)"; done
# (the DataLoader timeout never fired: rank 1 blocks reading the stopped worker's pipe) copy after 170 s of silence
# (done by hand at 174 s in the kept run), then cancel
while [ $(quiet slurm-$J.out) -lt 170 ] && squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out kept.log; echo "copied $(date -u +%T) quiet=$(quiet slurm-$J.out)"; scancel $J
sbwait $J; for c in $(pgrep -P $R1 2>/dev/null); do kill -9 $c; done; echo done
