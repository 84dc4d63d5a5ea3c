#!/bin/bash
# sbatch -N1 --mem=1500M with torchrun (2 ranks) run directly in the batch step, Lightning-like; at step 700 each rank
# builds a 1.0 GB feature cache: the job's memory cgroup fills, the OOM killer kills a rank.
CASE=j03; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lit-tab -N 1 -n 2 -w lab29n1 --mem=1500M --no-requeue -o %x-%j.out
echo "[\$(hostname)] \$SLURMD_NODENAME job \$SLURM_JOB_ID: launching torchrun"
export OMP_NUM_THREADS=1
nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:40643 $T --style lightning --steps 3000 --ckpt-dir ck --ckpt-every 500 --mem-probe-at 700 --mem-probe-gb 1.0
EOS
sbrun; sbdone lit-tab-$J.out
