#!/usr/bin/env bash
# System packages the integration tests and `ajr dev up` need: Slurm + munge always, Debian's
# chromium and chromedriver (the Web UI browser test), and a
# MariaDB server only when no MySQL/MariaDB answers on 127.0.0.1:3306 already.
# Idempotent: installs nothing when everything is present (then it also runs without root).
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
APT_UPDATED=0

as_root() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "install-system-deps: need root to install $*" >&2
        exit 1
    fi
}

apt_install() {
    as_root "$@"
    if [ "$APT_UPDATED" -eq 0 ]; then
        apt-get update
        APT_UPDATED=1
    fi
    apt-get install -y "$@"
}

have() {
    command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]
}

# --- Slurm and munge ----------------------------------------------------------------------
missing=0
for prog in slurmctld slurmd sinfo sbatch squeue scontrol munge unmunge munged; do
    have "$prog" || missing=1
done
if [ "$missing" -eq 1 ]; then
    apt_install slurmctld slurmd slurm-client munge
fi

# slurm-wlm-emulator takes over the slurmctld/slurmd alternatives with front-end builds that
# fail with "No front end nodes defined": point them back at the real daemons.
for daemon in slurmctld slurmd; do
    if [ -e "/usr/sbin/$daemon-wlm" ] && readlink -f "/usr/sbin/$daemon" | grep -q emulator; then
        as_root "update-alternatives for $daemon"
        update-alternatives --set "$daemon" "/usr/sbin/$daemon-wlm"
    fi
done

# --- Chromium (tests/integration/test_web_ui.py drives the Temporal Web UI headless) ------------
if ! have chromium || ! have chromedriver; then
    apt_install --no-install-recommends chromium chromium-driver
fi

# --- Prometheus, promtool, systemd-analyze, slurmdbd -----------------------------------------
# tests/integration/test_observability.py scrapes a worker with Debian's real Prometheus;
# tests/unit/test_deploy.py checks deploy/ with promtool and `systemd-analyze verify`.
extra=()
have prometheus && have promtool || extra+=(prometheus)
have systemd-analyze || extra+=(systemd)
# tests/integration/test_least_privilege.py: accounting on the local MariaDB, sacctmgr admin levels.
have slurmdbd && have sacctmgr || extra+=(slurmdbd)
# ... which reaches this checkout under /root through a POSIX ACL for its test user (setfacl).
have setfacl || extra+=(acl)
if [ "${#extra[@]}" -gt 0 ]; then
    apt_install --no-install-recommends "${extra[@]}"
fi

# --- MySQL / MariaDB ----------------------------------------------------------------------
mysql_answers() {
    timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/3306' 2>/dev/null
}

if ! mysql_answers; then
    if [ ! -x /usr/sbin/mariadbd ]; then
        apt_install mariadb-server
    fi
    as_root "a running mariadbd"
    mkdir -p /run/mysqld
    chown mysql:mysql /run/mysqld
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
    for _ in $(seq 1 60); do
        mysql_answers && break
        sleep 0.5
    done
    if ! mysql_answers; then
        echo "install-system-deps: mariadbd did not answer on 127.0.0.1:3306" >&2
        exit 1
    fi
    # The tests connect as root without a password over TCP (AJR_TEST_MYSQL_URL overrides).
    # A fresh Debian MariaDB only lets root in through the unix socket, so add that login.
    for _ in $(seq 1 20); do
        mariadb -uroot -e "SELECT 1" >/dev/null 2>&1 && break
        sleep 0.5
    done
    mariadb -uroot -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
        GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
fi

echo "install-system-deps: Slurm, munge, Prometheus, systemd-analyze and MySQL/MariaDB are available"
