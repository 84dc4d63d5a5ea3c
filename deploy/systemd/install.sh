#!/usr/bin/env bash
# Install an ajr worker on a Debian head node (root): user `ajr`, /opt/ajr/venv,
# /etc/ajr/ajr.env, the systemd unit. Idempotent; an existing ajr.env is never overwritten.
#   deploy/systemd/install.sh [--no-start]
# Needs the Slurm client (squeue, scontrol), munge and slurm.conf already set up on the host.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
# Debian's interpreter: the service user must be able to run it (a pyenv under /root is not).
python=/usr/bin/python3.11
start=1
[ "${1:-}" = "--no-start" ] && start=0

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
need=()
[ -x "$python" ] && "$python" -c "import ensurepip" 2>/dev/null || need+=(python3.11 python3.11-venv)
command -v squeue >/dev/null || need+=(slurm-client)
command -v munge >/dev/null || need+=(munge)
if [ "${#need[@]}" -gt 0 ]; then
    apt-get update
    apt-get install -y --no-install-recommends "${need[@]}"
fi

# A system user without a login shell or home; Slurm rights come from sacctmgr (README).
if ! id ajr >/dev/null 2>&1; then
    useradd --system --user-group --no-create-home --home-dir /var/lib/ajr \
        --shell /usr/sbin/nologin ajr
fi

install -d -m 0755 /opt/ajr
[ -x /opt/ajr/venv/bin/python ] || "$python" -m venv /opt/ajr/venv
/opt/ajr/venv/bin/pip install --quiet --upgrade "$repo"

install -d -m 0750 -o root -g ajr /etc/ajr
if [ ! -e /etc/ajr/ajr.env ]; then
    install -m 0640 -o root -g ajr "$repo/deploy/systemd/ajr.env.example" /etc/ajr/ajr.env
    echo "install.sh: edit /etc/ajr/ajr.env (Temporal, database, cluster name)"
fi
install -m 0644 "$repo/deploy/systemd/ajr-worker.service" /etc/systemd/system/ajr-worker.service
# One worker per cluster on this host instead: ajr-worker@<cluster> with /etc/ajr/<cluster>.env.
install -m 0644 "$repo/deploy/systemd/ajr-worker@.service" /etc/systemd/system/ajr-worker@.service

if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl enable ajr-worker.service
    [ "$start" -eq 1 ] && systemctl restart ajr-worker.service
    systemctl --no-pager status ajr-worker.service || true
else
    echo "install.sh: systemd is not running here; unit installed, not started"
fi
