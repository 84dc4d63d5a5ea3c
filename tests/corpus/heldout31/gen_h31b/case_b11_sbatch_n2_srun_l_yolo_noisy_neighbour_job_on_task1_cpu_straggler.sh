#!/bin/bash
# sbatch -N2 + srun --label, Ultralytics-YOLO-classify style; each task pins itself to CPU $SLURM_PROCID (taskset);
# from epoch 4 another Slurm job on task 1's node (lab31n2) runs a CPU-bound process pinned to CPU 1 until the end.
CASE=b11; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J yolo-cls -N 2 -w lab31n1,lab31n2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label bash -c 'exec taskset -c \$SLURM_PROCID nice -n 10 $V/python $T --master 127.0.0.1:42652 --style yolo --steps 3744 --log-every 52 --eval-every 1 --ckpt-dir $RUN/runs/classify/train --ckpt-every 1248'
EOS
sbrun; waitfor " 4/12 " yolo-cls-$J.out 400
N=$(sbatch --parsable -w lab31n2 -n 1 --mem=50M -J feat-prep -o /dev/null --wrap "exec taskset -c 1 nice -n 10 $V/python -c 'while True: pass'"); log "neighbour $N"
sbdone yolo-cls-$J.out; scancel $N
