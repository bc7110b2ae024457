# Sourced by .ci/run: start a throwaway PostgreSQL 15 cluster on a free loopback port and export
# TEST_DATABASE_URL so the service's tests run against it as well as against PGlite.
pg_bin=/usr/lib/postgresql/15/bin
pg_dir=$(mktemp -d /tmp/provisioner-pg.XXXXXX)
pg_port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
pg_user=$(id -un)
run_as=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root.
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$pg_dir"
  run_as=(runuser -u postgres --)
  pg_user=postgres
fi
"${run_as[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U "$pg_user" -A trust >/dev/null
"${run_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1" -l "$pg_dir/log" -w start >/dev/null
# Stop the cluster and remove its directory however the run ends.
trap '"${run_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"' EXIT
export TEST_DATABASE_URL="postgres://$pg_user@127.0.0.1:$pg_port/postgres"
echo "PostgreSQL 15 test cluster at $TEST_DATABASE_URL"
