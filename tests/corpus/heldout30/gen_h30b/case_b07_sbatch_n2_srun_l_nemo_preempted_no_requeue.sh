#!/bin/bash
# sbatch -N2 --no-requeue (partition train) + srun --label, NeMo-style, no SIGTERM handler; after step 700 a 2-node job
# in partition urgent on the same nodes preempts it (PreemptMode=REQUEUE, but the job is not requeueable).
CASE=b07; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nemo-pre -N 2 -w lab30n3,lab30n4 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41647 --style nemo --steps 6000 --log-every 50 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "|[ ]*7[0-9][0-9]/6000" nemo-pre-$J.out 400
U=$(sbatch --parsable -p urgent -N 2 -w lab30n3,lab30n4 --mem=100M -J urgent-eval -o /dev/null --wrap "sleep 10"); log "urgent $U"
sbdone nemo-pre-$J.out
