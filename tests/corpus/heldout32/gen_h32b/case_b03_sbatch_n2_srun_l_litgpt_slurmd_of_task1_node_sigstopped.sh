#!/bin/bash
# sbatch -N2 -w lab32n1,lab32n2 + srun --label, litgpt-style; after step 1500 lab32n2's slurmd is SIGSTOPped (hung daemon;
# its job steps keep running); SIGCONTed once the job has left the queue.
CASE=b03; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lit-mlp -N 2 -w lab32n1,lab32n2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:43653 --style litgpt --steps 30000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/out/pretrain --ckpt-every 1000
EOS
sbrun; waitfor "iter 1500 step" lit-mlp-$J.out 300; SD=$(cat /work/lab32b/slurm/slurmd-lab32n2.pid); kill -STOP $SD; log "slurmd $SD stopped"
for i in $(seq 1 240); do squeue -h -j $J | grep -q . || break; sleep 2; done; kill -CONT $SD; log cont; sleep 3; cp lit-mlp-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason"
sleep 20; sinfo -N; scontrol update nodename=lab32n2 state=resume 2>&1; sleep 5; sinfo -N; waitgone 60
