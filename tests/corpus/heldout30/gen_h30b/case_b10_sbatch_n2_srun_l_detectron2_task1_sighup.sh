#!/bin/bash
# sbatch -N2 + srun --label, detectron2-like; after iteration 800 task 1 gets SIGHUP from outside Slurm.
CASE=b10; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J d2-hup -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41650 --style detectron2 --steps 4000 --log-every 50 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "iter: 799 " d2-hup-$J.out 400; P=$(rankpid SLURM_PROCID=1); kill -HUP $P; log "hup $P"; sbdone d2-hup-$J.out
