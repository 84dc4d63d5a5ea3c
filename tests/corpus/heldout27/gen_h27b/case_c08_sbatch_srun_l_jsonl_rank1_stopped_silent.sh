#!/bin/bash
# sbatch -N2 (lab27n3,lab27n4) + srun --label, JSON lines from both ranks, --pg-timeout 1800; rank 1 SIGSTOPped after
# step 800: nothing more is printed; kept.log is the output file copied after 150 s of quiet, then the job is scancelled.
CASE=c08; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jsonl-pt -N 2 -w lab27n3,lab27n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:38108 --style jsonl --steps 4000 --log-every 100 --ckpt-dir ck --ckpt-every 400
EOS
sbrun; F=jsonl-pt-$J.out; waitfor '"step": 800,' $F 400; sleep 1; P=$(envpids SLURM_PROCID=1); kill -STOP $P; log stopped
sleep 150; cp $F kept.log; log "kept, quiet $(quiet $F)s last=$(date -u -r $F +%T)"; scancel $J; kill -CONT $P; sbdone $F
