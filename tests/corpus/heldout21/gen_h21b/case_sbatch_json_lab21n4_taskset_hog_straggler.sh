#!/bin/bash
# STRAGGLER (one node): sbatch job, 2 nodes x 1 task, srun of t21.py JSON lines with per-rank forward (data+fwd)
# times (fwd_ms_by_rank); after step 200 lab21n3's task is pinned to CPU 0 and lab21n4's task to CPU 1, and two
# busy-loop processes (nice 0) are started pinned to CPU 1 (a noisy neighbour on lab21n4's core) until the job ends.
CASE=sb_hog; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-h -N 2 --ntasks-per-node=1 --mem=1500M -w lab21n[3-4] -o slurm-%j.out
export OMP_NUM_THREADS=1
srun nice -n 10 $V/python $T21 --fmt json --master 127.0.0.1:29718 --steps 700 --log-every 25 --ckpt-every 200 --ckpt-dir $RUN/ckpt
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor '"step": 200,' slurm-$J.out 400
for p in $(envpids t21.py SLURM_JOB_ID=$J); do [ "$(ps -o comm= $p)" = srun ] && continue
  n=$(tr '\0' '\n' < /proc/$p/environ | sed -n 's/^SLURMD_NODENAME=//p'); [ "$n" = lab21n4 ] && c=1 || c=0
  taskset -a -p -c $c $p > /dev/null; echo "pinned $p ($n) to cpu $c" >&2; done
H1=$(setsid taskset -c 1 python3 -c 'while True: pass' > /dev/null 2>&1 & echo $!); H2=$(setsid taskset -c 1 python3 -c 'while True: pass' > /dev/null 2>&1 & echo $!)
echo "hogs $H1 $H2 $(date +%T)" >&2
# Each setsid'd busy loop is its own scheduler autogroup, so at first they took only about half of CPU 1 from the task
# (no visible slowdown). In the kept run their autogroups were then given nice -10 by hand, ~62 s after they started
# (14:31:37 and 14:31:45); the two lines below do the same.
sleep 62; for h in $H1 $H2; do echo -10 > /proc/$h/autogroup; done; echo "hog autogroups nice -10 $(date +%T)" >&2
sbwait $J
kill $H1 $H2
