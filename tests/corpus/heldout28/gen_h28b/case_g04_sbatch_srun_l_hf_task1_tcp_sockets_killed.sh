#!/bin/bash
# sbatch -N2 + srun --label, HF-Trainer-like; after step 700 every established TCP socket of task 1 (its gloo pairs and
# its c10d store connection, found with 'ss -tnp' by pid) is destroyed with 'ss -K' (as a NIC/switch reset would).
CASE=g04; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J hf-sock -N 2 -w lab28n3,lab28n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39658 --style hf --steps 3000 --log-every 50 --eval-every 500 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; F=hf-sock-$J.out; waitfor "'epoch': 2.24" $F 400; P=$(rankpid SLURM_PROCID=1)
for lp in $(ss -tnpH state established | grep "pid=$P," | awk '{print $3}'); do ss -K state established src $lp >/dev/null; log "killed $lp"; done
sbdone $F
