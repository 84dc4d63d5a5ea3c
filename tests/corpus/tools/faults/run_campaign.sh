#!/bin/bash
# Generate tests/corpus/generated_incoming/*.log by running bench/faultjob for real, under srun
# (sbatch on the local dev stack's 4-node Slurm cluster) and under torchrun. See README.md.
#
#   . <(ajr dev env)   # with the stack's AJR_* settings; root (mounts, cgroups, loop devices)
#   bash tests/corpus/tools/faults/run_campaign.sh srun|torchrun|storage|hangs|node_fail|resume
set -uo pipefail

REPO=$(cd "$(dirname "$0")/../../../.." && pwd)
WORK=${FAULTS_WORK:-/tmp/faultjob-campaign}
OUT=${FAULTS_OUT:-$REPO/tests/corpus/generated_incoming}
META=${FAULTS_META:-$WORK/meta}
mkdir -p "$WORK" "$OUT" "$META"
export PYTHONPATH=$REPO FAULTJOB_PYTHON=$REPO/.venv/bin/python
# shellcheck source=lib.sh
. "$REPO/tests/corpus/tools/faults/lib.sh"
cd "$WORK" || exit 1

N2x1="-N 2 --ntasks-per-node=1"
N2x2="-N 2 --ntasks-per-node=2"
CADENCE=(--iter-delay 0.3)

srun_cases() {
    srun_case healthy_srun_1 "$N2x1" --train-iters 40 --save-interval 10 "${CADENCE[@]}"
    srun_case healthy_srun_2 "$N2x2" --train-iters 30 --save-interval 10 --log-rank last \
        --log-style core_v0.12 "${CADENCE[@]}"
    srun_case segfault_srun_1 "$N2x1" --train-iters 60 "${CADENCE[@]}" \
        --fault segfault --at-iteration 15 --fault-rank 1
    srun_case sigkill_srun_1 "$N2x2" --train-iters 60 "${CADENCE[@]}" \
        --fault sigkill --at-iteration 12 --fault-rank 2 --log-style v2.6
    srun_case collective_hang_srun_1 "$N2x1" --train-iters 60 "${CADENCE[@]}" \
        --fault collective_hang --at-iteration 10 --fault-rank 1 --pg-timeout 45
    srun_case collective_hang_srun_2 "$N2x2" --train-iters 60 "${CADENCE[@]}" \
        --fault collective_hang --at-iteration 14 --fault-rank 3 --pg-timeout 30 --log-style v2.6
    srun_case straggler_srun_1 "$N2x2" --train-iters 45 "${CADENCE[@]}" --save-interval 15 \
        --fault straggler --at-iteration 20 --fault-rank 3 --straggler-delay 1.5
    srun_case straggler_then_hang_srun_1 "$N2x1" --train-iters 80 "${CADENCE[@]}" \
        --fault straggler_then_hang --at-iteration 15 --fault-rank 1 --straggler-delay 1.0 \
        --hang-after 8 --pg-timeout 40
    srun_case nan_srun_1 "$N2x1" --train-iters 60 "${CADENCE[@]}" \
        --fault nan --at-iteration 10 --fault-rank 1 --detect-anomaly
    srun_case nan_srun_2 "$N2x2" --train-iters 60 "${CADENCE[@]}" \
        --fault nan --at-iteration 12 --fault-rank 3
    srun_case oom_srun_1 "$N2x1" --train-iters 60 "${CADENCE[@]}" \
        --fault oom --at-iteration 10 --fault-rank 1
    srun_case oom_srun_2 "$N2x2" --train-iters 60 "${CADENCE[@]}" \
        --fault oom --at-iteration 10 --fault-rank 2 --no-oom-report
    srun_case dataloader_killed_srun_1 "$N2x1" --train-iters 60 "${CADENCE[@]}" --num-workers 2 \
        --fault dataloader_killed --at-iteration 12 --fault-rank 0
    srun_case exit16_srun_1 "$N2x1" --train-iters 60 "${CADENCE[@]}" \
        --fault exit16 --at-iteration 14 --fault-rank 1
    srun_case exit17_srun_1 "$N2x2" --train-iters 60 "${CADENCE[@]}" \
        --fault exit17 --at-iteration 9 --fault-rank 2
    srun_case exit93_srun_1 "$N2x1" --train-iters 60 "${CADENCE[@]}" \
        --fault exit93 --at-iteration 11
}

torchrun_cases() {
    torchrun_case healthy_torchrun_1 2 --train-iters 40 "${CADENCE[@]}" \
        --save "$WORK/ckpt_tr_healthy1" --save-interval 10
    torchrun_case healthy_torchrun_2 4 --tee --train-iters 25 "${CADENCE[@]}" --log-rank all \
        --log-style v2.6
    torchrun_case segfault_torchrun_1 4 --train-iters 60 "${CADENCE[@]}" \
        --fault segfault --at-iteration 12 --fault-rank 2
    torchrun_case sigkill_torchrun_1 2 --train-iters 60 "${CADENCE[@]}" \
        --fault sigkill --fault-after 8 --fault-rank 1
    torchrun_case collective_hang_torchrun_1 2 --train-iters 60 "${CADENCE[@]}" \
        --fault collective_hang --at-iteration 10 --fault-rank 0 --pg-timeout 40
    torchrun_case straggler_torchrun_1 2 --train-iters 45 "${CADENCE[@]}" \
        --fault straggler --at-iteration 20 --fault-rank 1 --straggler-delay 1.2
    torchrun_case straggler_then_hang_torchrun_1 4 --train-iters 80 "${CADENCE[@]}" \
        --fault straggler_then_hang --at-iteration 12 --fault-rank 1 --straggler-delay 1.0 \
        --hang-after 6 --pg-timeout 30 --log-style core_v0.12
    torchrun_case nan_torchrun_1 2 --train-iters 60 "${CADENCE[@]}" \
        --fault nan --at-iteration 10 --fault-rank 1 --detect-anomaly
    torchrun_case nan_torchrun_2 2 --train-iters 60 "${CADENCE[@]}" \
        --fault nan --at-iteration 8 --fault-rank 0
    torchrun_case oom_torchrun_1 2 --train-iters 60 "${CADENCE[@]}" \
        --fault oom --at-iteration 9 --fault-rank 1
    torchrun_case dataloader_killed_torchrun_1 2 --train-iters 60 "${CADENCE[@]}" \
        --num-workers 1 --fault dataloader_killed --at-iteration 10 --fault-rank 1
    torchrun_case exit16_torchrun_1 2 --train-iters 60 "${CADENCE[@]}" \
        --save "$WORK/ckpt_tr_exit16" --fault exit16 --at-iteration 10 --fault-rank 0
    torchrun_case exit17_torchrun_1 2 --train-iters 60 "${CADENCE[@]}" \
        --save "$WORK/ckpt_tr_exit17" --fault exit17 --at-iteration 10 --fault-rank 1
    torchrun_case exit93_torchrun_1 4 --train-iters 60 "${CADENCE[@]}" \
        --fault exit93 --at-iteration 10
}

storage_cases() {
    # ENOSPC, for real: the checkpoint directory is a 6 MiB tmpfs; each save takes ~1.6 MB.
    mkdir -p "$WORK/enospc"
    mount -t tmpfs -o size=6m faultjob-enospc "$WORK/enospc"
    FAULTJOB_SAVE=$WORK/enospc/ckpt srun_case storage_enospc_srun_1 "$N2x1" --train-iters 60 \
        "${CADENCE[@]}" --save-interval 5
    rm -rf "$WORK/enospc/ckpt"
    torchrun_case storage_enospc_torchrun_1 2 --train-iters 60 "${CADENCE[@]}" \
        --save "$WORK/enospc/ckpt" --save-interval 10 --fault storage_error --at-iteration 25
    umount "$WORK/enospc"
    # EIO, for real: ext4 on a loop device, shut down (FS_IOC_SHUTDOWN) before a save.
    truncate -s 32M "$WORK/eio.img" && mkfs.ext4 -q -F "$WORK/eio.img"
    local loop
    loop=$(losetup -f --show "$WORK/eio.img")
    mkdir -p "$WORK/eio" && mount "$loop" "$WORK/eio"
    FAULTJOB_SAVE=$WORK/eio/ckpt srun_case storage_eio_srun_1 "$N2x2" --train-iters 60 \
        "${CADENCE[@]}" --save-interval 10 --fault storage_error --at-iteration 25 \
        --eio-mount "$WORK/eio"
    umount "$WORK/eio"
    mount "$loop" "$WORK/eio" && rm -rf "$WORK/eio/ckpt"
    torchrun_case storage_eio_torchrun_1 2 --train-iters 60 "${CADENCE[@]}" \
        --save "$WORK/eio/ckpt" --save-interval 10 --fault storage_error --at-iteration 15 \
        --eio-mount "$WORK/eio"
    umount "$WORK/eio" && losetup -d "$loop" && rm -f "$WORK/eio.img"
}

hang_cases() {
    # silent_hang: no watchdog; end the job once it has been silent for 150 s (scancel / TERM).
    local name=silent_hang_srun_1 job log
    job=$(sbatch --parsable -J $name $N2x1 "$REPO/bench/faultjob/faultjob.sbatch" \
        --train-iters 200 "${CADENCE[@]}" --fault silent_hang --at-iteration 20 --fault-rank 1)
    until log=$(attempt_log $name "$job") && [[ -n $log ]] && grep -q iteration "$log"; do
        sleep 2
    done
    while (($(silence_seconds "$log") < 150)); do sleep 2; done
    scancel "$job"
    wait_job "$job" >/dev/null
    cp "$log" "$OUT/$name.log"
    record $name "sbatch -J $name $N2x1 bench/faultjob/faultjob.sbatch --train-iters 200" \
        "${CADENCE[*]} --fault silent_hang --at-iteration 20 --fault-rank 1; scancel after 150 s"
    printf '%s\tjob=%s\tnodes=%s\n' $name "$job" \
        "$(scontrol show hostnames "$(job_field "$job" NodeList)" | paste -sd, -)" \
        | tee -a "$META/jobs.tsv"
    torchrun_case silent_hang_torchrun_1 2 --kill-after-silence 120 --train-iters 200 \
        "${CADENCE[@]}" --fault silent_hang --at-iteration 15 --fault-rank 0
}

node_fail_case() {
    local name=node_fail_srun_1 job
    job=$(sbatch --parsable -J $name $N2x1 --no-requeue "$REPO/bench/faultjob/faultjob.sbatch" \
        --train-iters 400 --iter-delay 0.5 --save-interval 20)
    "$REPO/.venv/bin/python" -m bench.faultjob.node_fail "$job" --after 35 \
        --registry "$AJR_STATE_DIR/dev/processes.json" | tee -a "$META/jobs.tsv"
    local state nodes
    nodes=$(scontrol show hostnames "$(job_field "$job" NodeList)" | paste -sd, -)
    state=$(wait_job "$job")
    cp "$(attempt_log $name "$job")" "$OUT/$name.log"
    record $name "sbatch -J $name $N2x1 --no-requeue bench/faultjob/faultjob.sbatch --train-iters 400" \
        "--iter-delay 0.5 --save-interval 20; python -m bench.faultjob.node_fail $job --after 35"
    printf '%s\tjob=%s\tstate=%s\tnodes=%s\n' $name "$job" "$state" "$nodes" \
        | tee -a "$META/jobs.tsv"
    "$REPO/.venv/bin/ajr" dev up --no-worker | grep slurmd  # restart the killed slurmd
}

resume_case() {
    # A requeue-like restart: attempt 0 is SIGKILLed after two saves; ajr's requeue sequence
    # (requeuehold, StartTime=now, release) starts attempt 1, which resumes from iteration 20.
    local name=resume_srun job
    job=$(sbatch --parsable -J $name $N2x1 "$REPO/bench/faultjob/faultjob.sbatch" \
        --train-iters 40 "${CADENCE[@]}" --save-interval 10 \
        --fault sigkill --at-iteration 25 --fault-rank 1 --fault-on-attempt 0)
    wait_job "$job" >/dev/null
    local first
    first=$(attempt_log $name "$job")
    sleep 2
    scontrol requeuehold "$job"
    sleep 2
    scontrol update JobId="$job" StartTime=now
    scontrol release "$job"
    sleep 5
    wait_job "$job" >/dev/null
    cp "$first" "$OUT/resume_srun_1.log"
    cp "$(attempt_log $name "$job")" "$OUT/resume_srun_2.log"
    record resume_srun "sbatch -J $name $N2x1 bench/faultjob/faultjob.sbatch --train-iters 40" \
        "${CADENCE[*]} --save-interval 10 --fault sigkill --at-iteration 25 --fault-rank 1" \
        "--fault-on-attempt 0;" \
        "scontrol requeuehold/update StartTime=now/release"
    printf '%s\tjob=%s\tnodes=%s\n' $name "$job" \
        "$(scontrol show hostnames "$(job_field "$job" NodeList)" | paste -sd, -)" \
        | tee -a "$META/jobs.tsv"
}

case ${1:-} in
    srun) srun_cases ;;
    torchrun) torchrun_cases ;;
    storage) storage_cases ;;
    hangs) hang_cases ;;
    node_fail) node_fail_case ;;
    resume) resume_case ;;
    *) echo "usage: $0 srun|torchrun|storage|hangs|node_fail|resume" >&2; exit 2 ;;
esac
