#!/usr/bin/env bash
# Idempotent: make a Docker engine available on a bare Debian bookworm VM (no systemd, root, no image registry).
# Installs docker.io from Debian if missing, mounts cgroups if missing, starts dockerd in the background
# and waits until it answers. If the engine already answers it only checks (~0.1 s).
set -euo pipefail
DOCKER_WAIT_S=${DOCKER_WAIT_S:-60}
DOCKERD_LOG=${DOCKERD_LOG:-/var/log/dockerd-ci.log}
DOCKERD_PIDFILE=${DOCKERD_PIDFILE:-/var/run/docker.pid}       # dockerd writes it itself (-p)
DOCKERD_EXEC_ROOT=${DOCKERD_EXEC_ROOT:-/var/run/docker}
DOCKERD_DATA_ROOT=${DOCKERD_DATA_ROOT:-/var/lib/docker}
DOCKERD_ARGS=${DOCKERD_ARGS:-}                                # extra dockerd flags
export DOCKER_HOST=${DOCKER_HOST:-unix:///var/run/docker.sock}

t0=$(date +%s%N)
log() { echo "[docker-up $(( ($(date +%s%N) - t0) / 1000000 )) ms] $*"; }
up() { command -v docker >/dev/null 2>&1 && timeout 5 docker info >/dev/null 2>&1; }
ver() { docker version -f '{{.Server.Version}} (API {{.Server.APIVersion}})'; }
# a killed daemon can linger as a zombie (this VM's init reaps late); kill -0 and dockerd's own
# pid-file check treat zombies as running, so check /proc state instead
pid_alive() { [ -n "${1:-}" ] && [ -d "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
clean_stale() {
  local f
  for f in "$DOCKERD_PIDFILE" "$DOCKERD_EXEC_ROOT/containerd/containerd.pid"; do
    if [ -s "$f" ] && ! pid_alive "$(cat "$f")"; then rm -f "$f"; log "removed stale $f"; fi
  done
}

if up; then log "engine already up: $(ver)"; exit 0; fi

if ! command -v dockerd >/dev/null 2>&1; then
  log "installing docker.io from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends docker.io iptables >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null; apt-get install -y -qq --no-install-recommends docker.io iptables >/dev/null; }
  log "installed docker.io $(dpkg-query -W -f '${Version}' docker.io)"
fi

# cgroups: this VM's init mounts them at boot; same fallback as /etc/init.d/docker
if [ -e /proc/cgroups ] && [ -d /sys/fs/cgroup ] && ! mountpoint -q /sys/fs/cgroup; then
  log "mounting cgroups"
  mount -t tmpfs -o uid=0,gid=0,mode=0755 cgroup /sys/fs/cgroup
  ( cd /sys/fs/cgroup; for s in $(awk '!/^#/ { if ($4 == 1) print $1 }' /proc/cgroups); do
      mkdir -p "$s"; mountpoint -q "$s" || mount -n -t cgroup -o "$s" cgroup "$s" || rmdir "$s" || true; done )
fi

start_dockerd() {
  clean_stale
  log "starting dockerd (log: $DOCKERD_LOG)"
  ulimit -n 1048576 2>/dev/null || true
  # shellcheck disable=SC2086
  nohup dockerd -H "$DOCKER_HOST" -p "$DOCKERD_PIDFILE" --exec-root "$DOCKERD_EXEC_ROOT" \
        --data-root "$DOCKERD_DATA_ROOT" $DOCKERD_ARGS >>"$DOCKERD_LOG" 2>&1 </dev/null &
  DPID=$!
}

DPID=$(cat "$DOCKERD_PIDFILE" 2>/dev/null || true)
if pid_alive "$DPID" && [ "$(cat "/proc/$DPID/comm" 2>/dev/null)" = dockerd ]; then
  log "dockerd already running (pid $DPID), waiting for it"
else
  start_dockerd
fi
tries=1; deadline=$(( $(date +%s) + DOCKER_WAIT_S ))
while [ "$(date +%s)" -lt "$deadline" ]; do
  if up; then log "engine up: $(ver)"; exit 0; fi
  if ! pid_alive "$DPID"; then                      # it exited (e.g. stale containerd state): retry
    [ "$tries" -ge 5 ] && break
    log "dockerd exited: $(tail -1 "$DOCKERD_LOG")"; sleep 2; tries=$((tries + 1)); start_dockerd
  fi
  sleep 0.1
done
log "dockerd did not answer within ${DOCKER_WAIT_S}s; last log lines:"; tail -20 "$DOCKERD_LOG" >&2; exit 1
