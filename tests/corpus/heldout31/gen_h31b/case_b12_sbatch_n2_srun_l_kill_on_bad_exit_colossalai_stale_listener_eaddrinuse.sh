#!/bin/bash
# sbatch -N2 + srun --label --kill-on-bad-exit=1, ColossalAI-style; a stale process from an earlier run still listens
# on the job's MASTER_PORT 42653 (0.0.0.0) -> rank 0's TCPStore cannot bind: EADDRINUSE.
CASE=b12; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
(cd $RUN; exec $V/python -c "import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0', 42653)); s.listen(8); time.sleep(900)") & S=$!; sleep 1; log "stale listener $S"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J clai-llm -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label --kill-on-bad-exit=1 nice -n 10 $V/python $T --master 127.0.0.1:42653 --style colossalai --steps 4000 --log-every 50 --ckpt-dir $RUN/ckpt --ckpt-every 1000
EOS
sbrun; sbdone clai-llm-$J.out; kill $S
