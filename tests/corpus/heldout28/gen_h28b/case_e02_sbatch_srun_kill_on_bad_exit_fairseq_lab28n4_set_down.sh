#!/bin/bash
# sbatch -N2 (lab28n3,lab28n4) + srun --label --kill-on-bad-exit=1, fairseq-like; after update 800 an admin sets
# lab28n4 DOWN (scontrol update state=down reason="nhc: failed") -> job ended by node failure; node resumed after.
CASE=e02; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J fs-lm -N 2 -w lab28n3,lab28n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label --kill-on-bad-exit=1 nice -n 10 $V/python $T --master 127.0.0.1:39642 --style fairseq --steps 6000 --log-every 100 --eval-every 600 --ckpt-dir ck --ckpt-every 600
EOS
sbrun; waitfor "num_updates=800," fs-lm-$J.out 400; scontrol update nodename=lab28n4 state=down reason="nhc: failed"; log down
sbdone fs-lm-$J.out; sleep 5; for p in $(mypids); do kill $p; done; scontrol update nodename=lab28n4 state=resume; sinfo
