#!/usr/bin/env bash
# deploy/ansible test, tarball install: role hadoop's release-tarball path (tasks/tarball.yml) on a
# tarball laid out as Apache's (hadoop-X/bin, share/hadoop/...) with an Apache-style .sha512
# file. Passes when the good tarball is verified and unpacked, a second run changes nothing, and
# a tarball whose checksum does not match is refused. Needs root (files owned by root).
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
fail() { echo "deploy tarball test: FAILED: $*" >&2; echo "deploy tarball test: 0 passed, 1 failed"; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root"
work="$(mktemp -d /var/tmp/fpgamr-tarball-test.XXXXXX)"
trap '[ "${FPGAMR_TEST_KEEP:-0}" = 1 ] || rm -rf --one-file-system "$work"' EXIT
version="$(sed -n 's/^hadoop_version: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$here/roles/hadoop/defaults/main.yml")"
top="$work/build/hadoop-$version"
mkdir -p "$top/bin" "$top/share/hadoop/common/lib" "$top/etc/hadoop"
printf '#!/bin/sh\necho "Hadoop %s (test tarball)"\n' "$version" >"$top/bin/hadoop"
chmod 0755 "$top/bin/hadoop"
echo "test" >"$top/share/hadoop/common/README.txt"
tar -czf "$work/hadoop-$version.tar.gz" -C "$work/build" "hadoop-$version"
sum="$(sha512sum "$work/hadoop-$version.tar.gz" | cut -d' ' -f1)"
# Apache's layout of a .sha512 file: "SHA512 (name) = HEX", here split over two lines as some are.
printf 'SHA512 (hadoop-%s.tar.gz) = %s\n %s\n' "$version" "${sum:0:64}" "${sum:64}" >"$work/hadoop-$version.tar.gz.sha512"

run() {  # LOG EXTRA-VARS...
  local log="$1"
  shift
  ANSIBLE_CONFIG="$here/ansible.cfg" ANSIBLE_NOCOLOR=1 ansible-playbook -i localhost, "$here/tests/tarball.yml" \
    -e "hadoop_tarball_local=$work/hadoop-$version.tar.gz" -e "hadoop_tarball_sha512_url=$work/hadoop-$version.tar.gz.sha512" \
    -e "hadoop_prefix=$work/opt/hadoop-$version" -e "hadoop_download_dir=$work/cache" "$@" >"$work/$log" 2>&1
}
run 1.log || { tail -n 30 "$work/1.log" >&2; fail "the tarball install failed"; }
[ "$("$work/opt/hadoop-$version/bin/hadoop")" = "Hadoop $version (test tarball)" ] || fail "not unpacked into hadoop_prefix"
run 2.log || { tail -n 30 "$work/2.log" >&2; fail "the second run failed"; }
grep -q 'changed=0 .*failed=0' "$work/2.log" || { tail -n 8 "$work/2.log" >&2; fail "the second run changed something"; }
rm -rf "$work/opt" "$work/cache"
bad="$(printf '%0128d' 0)"
if run 3.log -e "hadoop_tarball_sha512=$bad"; then fail "a tarball with the wrong SHA-512 was installed"; fi
grep -q "SHA-512 $sum, expected $bad" "$work/3.log" || { tail -n 20 "$work/3.log" >&2; fail "no checksum-mismatch message"; }
[ ! -e "$work/opt/hadoop-$version" ] || fail "unpacked despite the checksum mismatch"
echo "deploy tarball test: 1 passed, 0 failed"
echo "deploy tarball test: PASSED (Apache-style .sha512 parsed, tarball verified and unpacked, idempotent, mismatch refused)"
