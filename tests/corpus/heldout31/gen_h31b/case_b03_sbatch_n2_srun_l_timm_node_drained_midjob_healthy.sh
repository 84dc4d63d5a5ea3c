#!/bin/bash
# sbatch -N2 + srun --label, timm train.py style; the job script prints sinfo for its nodes before and after srun; in
# epoch 4 task 1's node is set to DRAIN by an administrator (maintenance); the job runs to completion; undrained after.
CASE=b03; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J timm-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
sinfo -N -n \$SLURM_JOB_NODELIST -o "%N %T %E"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42643 --style timm --steps 3744 --log-every 52 --eval-every 1 --ckpt-dir $RUN/output/train/20261125-mlp48 --ckpt-every 1248
sinfo -N -n \$SLURM_JOB_NODELIST -o "%N %T %E"
EOS
sbrun; waitfor "Train: 3 \[  52/" timm-mlp-$J.out 400; N=$(squeue -h -j $J -o %N | sed 's/.*\[\([0-9]\)[-,]\([0-9]\)\]/lab31n\2/'); scontrol update nodename=$N state=drain reason="scheduled maintenance: BMC firmware update"; log "drained $N"
sbdone timm-mlp-$J.out; scontrol update nodename=$N state=resume; sinfo
