#!/bin/bash
# NETWORK: sbatch job, srun -l 4 tasks on lab17n[1-4] (per-rank table). After the step-150 table, every TCP connection
# of the task on lab17n4 (rank 3) is answered with a TCP reset: iptables REJECT --reject-with tcp-reset rules on lo
# matching exactly that task's local ports (both directions), as a failing link/switch port would; the rules are
# removed when the job has ended. In the kept run the resets were at first themselves caught by the same rules (a RST
# from port p matches --sport p), so for ~75 s the connections only stalled; then a rule letting RST packets through
# (iptables -I INPUT -i lo -p tcp --tcp-flags RST RST -j ACCEPT) was added by hand, and the ranks failed within seconds.
# That step is written below as it was done (after a pause), so the script repeats the kept run.
CASE=srun_tcp_reset; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-pretrain -N 4 -n 4 --mem=800M -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29620 OMP_NUM_THREADS=1
srun -l $V/python $G/t17.py --fmt table --steps 600 --log-every 50 --hidden 128
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step 150/" slurm-$J.out 300
P=$(envpids t17.py SLURM_PROCID=3); echo "task $P" >&2
PORTS=$(ss -tnpH state established | grep "pid=$P," | awk '{print $3}' | sed 's/.*://' | sort -u)
R=""; for p in $PORTS; do R="$R $p"; iptables -I INPUT -i lo -p tcp --sport $p -j REJECT --reject-with tcp-reset
  iptables -I INPUT -i lo -p tcp --dport $p -j REJECT --reject-with tcp-reset; done; echo "ports$R" >&2
sleep 75; iptables -I INPUT -i lo -p tcp --tcp-flags RST RST -j ACCEPT
while squeue -h -j $J | grep -q .; do sleep 2; done
for p in $R; do iptables -D INPUT -i lo -p tcp --sport $p -j REJECT --reject-with tcp-reset
  iptables -D INPUT -i lo -p tcp --dport $p -j REJECT --reject-with tcp-reset; done
iptables -D INPUT -i lo -p tcp --tcp-flags RST RST -j ACCEPT
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2
