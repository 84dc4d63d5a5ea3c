# Helpers for run_campaign.sh: run bench/faultjob under srun (sbatch) or torchrun, keep the log.
# Sourced, not executed. Needs: REPO, WORK (job dir), OUT (generated_incoming), META (metadata).

TRAIN=(-u -m bench.faultjob.train)

# wait_job JOB: until slurmctld reports the job finished; prints the final state.
wait_job() {
    local job=$1 state
    while :; do
        state=$(scontrol show job -o "$job" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
        case $state in
            PENDING|RUNNING|CONFIGURING|COMPLETING|REQUEUED|"") sleep 2 ;;
            *) echo "$state"; return ;;
        esac
    done
}

job_field() { scontrol show job -o "$1" | tr ' ' '\n' | grep "^$2=" | head -1 | cut -d= -f2-; }

# attempt_log NAME JOB [N]: the Nth (default newest) attempt log of a job in WORK.
attempt_log() {
    ls -1tr "$WORK"/"$1"_"$2"_date_*.log 2>/dev/null | sed -n "${3:-\$}p"
}

# record NAME LAUNCHER COMMAND...: remember how a log was made (for labels and README).
record() {
    local name=$1; shift
    printf '%s\t%s\n' "$name" "$*" >>"$META/commands.tsv"
}

# srun_case NAME "SBATCH ARGS" TRAIN ARGS...: one sbatch job, wait for it, copy its attempt log.
srun_case() {
    local name=$1 sbatch_args=$2; shift 2
    local job state nodes
    # shellcheck disable=SC2086
    job=$(sbatch --parsable -J "$name" $sbatch_args "$REPO/bench/faultjob/faultjob.sbatch" "$@")
    state=$(wait_job "$job")
    nodes=$(scontrol show hostnames "$(job_field "$job" NodeList)" | paste -sd, -)
    cp "$(attempt_log "$name" "$job")" "$OUT/$name.log"
    record "$name" "sbatch -J $name $sbatch_args bench/faultjob/faultjob.sbatch $*"
    printf '%s\tjob=%s\tstate=%s\texit=%s\tnodes=%s\n' "$name" "$job" "$state" \
        "$(job_field "$job" ExitCode)" "$nodes" | tee -a "$META/jobs.tsv"
}

# silence_seconds FILE: seconds since FILE last grew.
silence_seconds() { echo $(($(date +%s) - $(stat -c %Y "$1"))); }

# torchrun_case NAME NPROC [--kill-after-silence S] TRAIN ARGS...: stdout+stderr of torchrun.
torchrun_case() {
    local name=$1 nproc=$2; shift 2
    local silence=0 tee_args=()
    if [[ ${1:-} == --kill-after-silence ]]; then silence=$2; shift 2; fi
    if [[ ${1:-} == --tee ]]; then tee_args=(--tee 3); shift; fi
    local log="$OUT/$name.log" port=$((29500 + RANDOM % 2000))
    (cd "$REPO" && exec "$REPO/.venv/bin/torchrun" --nproc-per-node "$nproc" \
        --master-port "$port" "${tee_args[@]}" "${TRAIN[@]:1}" "$@" >"$log" 2>&1) &
    local pid=$!
    if ((silence > 0)); then
        # The job hangs without a watchdog: end it (SIGTERM to torchrun, as a scheduler's time
        # limit would) once the log has been silent for `silence` seconds past training start.
        while kill -0 "$pid" 2>/dev/null; do
            if grep -q "iteration" "$log" && (($(silence_seconds "$log") >= silence)); then
                kill -TERM "$pid"
                break
            fi
            sleep 2
        done
    fi
    wait "$pid"
    local rc=$?
    record "$name" "torchrun --nproc-per-node $nproc ${tee_args[*]} -m bench.faultjob.train $*"
    printf '%s\ttorchrun\trc=%s\n' "$name" "$rc" | tee -a "$META/jobs.tsv"
}
