#!/bin/bash
# sbatch -N2 + srun --label, NeMo-style, checkpoints every 400 to an ext4 loop fs remounted read-only after the
# step-400 save -> Errno 30 at the step-800 save.
CASE=b13; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
M=$(mkloop b13 64)
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nemo-ro -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41663 --style nemo --steps 3000 --log-every 50 --ckpt-dir $M/ck --ckpt-every 400
EOS
sbrun; for i in $(seq 1 400); do [ -e $M/ck/step_400/trainer_state.json ] && break; sleep 1; done; sleep 2; mount -o remount,ro $M && log remounted
sbdone nemo-ro-$J.out; rmloop b13
