#!/bin/bash
# sbatch -N2 (lab29n3, lab29n4) + srun --label, torchtune-like; after the step-500 checkpoint an administrator sets
# lab29n4 DOWN ('scontrol update nodename=lab29n4 state=down reason=...'): Slurm kills the job (node failure).
CASE=j21; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tt-dn -N 2 -w lab29n3,lab29n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40664 --style torchtune --steps 6000 --log-every 50 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "Saving checkpoint took" tt-dn-$J.out 400; sleep 6; scontrol update nodename=lab29n4 state=down reason="memory errors (EDAC)"; log down
sbdone tt-dn-$J.out; sleep 3; for p in $(mypids); do kill -9 $p; done; scontrol update nodename=lab29n4 state=resume; sinfo
