#!/usr/bin/env bash
# Removes the containers and networks Testcontainers left behind (a killed or timed-out test JVM leaves them:
# there is no Ryuk here). Run by the chaos-tests build before and after its suites. Quiet when there is no engine.
set -euo pipefail
command -v docker >/dev/null 2>&1 && timeout 5 docker info >/dev/null 2>&1 || exit 0
docker ps -aq --filter label=org.testcontainers=true | xargs -r docker rm -f >/dev/null
docker network ls -q --filter label=org.testcontainers=true | xargs -r docker network rm >/dev/null
