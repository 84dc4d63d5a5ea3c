#!/bin/bash
# sbatch -N2 + srun --label, Python logging from both ranks; after step 600 rank 1 is SIGSTOPped 0.25 s of every 0.35 s
# until the run ends.
CASE=e10; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pylog-str -N 2 -w lab28n3,lab28n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39652 --style pylog --steps 1400 --log-every 50
EOS
sbrun; F=pylog-str-$J.out; waitfor "step 600/" $F 400; P=$(rankpid SLURM_PROCID=1); log "duty $P"
while kill -0 $P 2>/dev/null; do kill -STOP $P; sleep 0.25; kill -CONT $P 2>/dev/null; sleep 0.1; done; sbdone $F
