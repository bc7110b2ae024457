#!/usr/bin/env bash
# Commit only the given paths, serialised with other committers working in the same checkout.
# usage: scripts/commit.sh "message" path...
set -euo pipefail
msg=$1; shift
exec 9>/tmp/provisioner-git.lock
flock 9
git add -A -- "$@"
git commit -q -m "$msg" -- "$@"
git log --oneline -1
