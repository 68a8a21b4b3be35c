#!/usr/bin/env bash
# deploy/ansible template test: renders the hardening's templates (units, rules, the container
# executor's and YARN's configuration, Grafana's settings) with the roles' defaults and checks
# them, and runs Grafana's apt key tasks against a key made here: taken when its fingerprint is
# the pinned one, refused otherwise (tests/templates.yml). Needs gpg; no node, no network.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
fail() { echo "deploy template test: FAILED: $*" >&2; echo "deploy template test: 0 passed, 1 failed"; exit 1; }
command -v gpg >/dev/null || fail "gpg is missing (make deps-test installs deploy/apt-packages-test.txt)"
work="$(mktemp -d /var/tmp/fpgamr-template-test.XXXXXX)"
trap '[ "${FPGAMR_TEST_KEEP:-0}" = 1 ] || rm -rf --one-file-system "$work"' EXIT
mkdir -p "$work/out/keyrings" "$work/gnupg"
chmod 0700 "$work/gnupg"
export GNUPGHOME="$work/gnupg"
gpg --batch --quiet --passphrase '' --quick-gen-key 'fpgamr template test <test@example.invalid>' ed25519 sign 1d 2>/dev/null \
  || fail "cannot make a test key with gpg"
gpg --batch --armor --export 2>/dev/null >"$work/test-key.asc"
fpr="$(gpg --batch --with-colons --list-keys 2>/dev/null | awk -F: '$1 == "pub" {p = 1; next} p && $1 == "fpr" {print $10; exit}')"
gpgconf --kill all 2>/dev/null || true
unset GNUPGHOME
cat >"$work/inventory.yml" <<INV
all:
  vars:
    ansible_python_interpreter: "{{ ansible_playbook_python }}"
  children:
    namenode: {hosts: {fpga1: }}
    resourcemanager: {hosts: {fpga1: }}
    monitoring: {hosts: {fpga1: }}
    workers: {hosts: {fpga1: }}
    fpga_workers: {hosts: {fpga1: }}
INV
if ! ANSIBLE_CONFIG="$here/ansible.cfg" ANSIBLE_NOCOLOR=1 ansible-playbook -i "$work/inventory.yml" "$here/tests/templates.yml" \
     -e "out=$work/out" -e "test_key=$work/test-key.asc" -e "test_key_fingerprint=$fpr" >"$work/play.log" 2>&1; then
  grep -B2 -A20 -E '^(fatal|failed):' "$work/play.log" | tail -n 40 >&2
  fail "tests/templates.yml failed"
fi
echo "deploy template test: 1 passed, 0 failed"
echo "deploy template test: PASSED (LinuxContainerExecutor and yarn-site, where designs load (auto; only at boot on the DE10-Nano image), device group, loader units, the NodeManager's pid and its JVM closed to attach, per-daemon logs, the exporter's user, address and ResourceManager, the RAPL rule, Grafana's address and password file; an apt key taken by its pinned fingerprint and refused under another; the example inventory's placeholder password refused)"
