#!/bin/bash
# NODE: Lightning DDP job submitted with sbatch to the local 2-node Slurm cluster (gpu-node01/02), srun -l, one task
# per node. Each rank reads its token shard through np.memmap; rank 1's shard lives on a 32 MiB tmpfs standing in for
# gpu-node02's local scratch. After ~150 steps the shard file is truncated to 0 bytes underneath the mapping
# (as a node-local scratch cleaner would do), so rank 1's next read of the mapping faults with SIGBUS.
CASE=srun_pl_sigbus; source "$(dirname "$0")/common.sh"
mkdir -p scratch1; mount -t tmpfs -o size=32m tmpfs scratch1
$V/python -c "
import numpy as np
np.random.default_rng(0).integers(0,512,1<<20).astype(np.uint16).tofile('shard0.bin')
np.random.default_rng(1).integers(0,512,1<<20).astype(np.uint16).tofile('scratch1/shard1.bin')"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-pl -N 2 --ntasks-per-node=1 -o $RUN/slurm-%j.out
export OMP_NUM_THREADS=1
srun -l $V/python $G/pl16.py --nodes 2 --steps 800 --hidden 256 --refresh 50 --data "$RUN/{rank}.bin"
EOS
ln -s shard0.bin 0.bin; ln -s scratch1/shard1.bin 1.bin
J=$(sbatch --parsable job.sh)
waitfor "150/512" slurm-$J.out 200
truncate -s 0 scratch1/shard1.bin
for i in $(seq 1 120); do squeue -h -j $J | grep -q . || break; sleep 1; done
cp slurm-$J.out out.log; echo "job $J" >&2
umount scratch1
