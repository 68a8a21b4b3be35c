#!/bin/sh
# Fetch what the armhf build and boot test need from Debian's armhf archive
# into DIR (default build/armhf), once: the armmp kernel (image, modules,
# headers), its kbuild tools and a static busybox.  Prints the kernel version
# (e.g. 6.1.0-50-armmp).
#
# The packages are downloaded with apt-get and unpacked with dpkg-deb into
# DIR/root, never installed: installing linux-headers-armmp:armhf makes apt
# replace the host's gcc, binutils and cross compilers with their armhf
# builds.  apt runs on a private state (DIR/apt) with the host's sources and
# APT::Architectures=armhf, so the host's dpkg configuration is untouched.
# The version is what the archive's linux-image-armmp depends on, as
# scripts/kver.sh reads linux-image-amd64's.
#
# The headers' Makefile includes the common headers by absolute path, and
# scripts/ links to linux-kbuild-6.1: both are pointed into DIR/root.  The
# host's (amd64) kbuild tools serve, except modpost, whose device-table
# layouts are the build machine's (its of_device_id is 200 bytes, ARM's
# 196): DIR/root's kbuild is a copy of the host's whose modpost runs the
# armhf package's under qemu-arm.
set -eu

DIR=${1:-build/armhf}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
if [ -s "$DIR/kver" ]; then
	cat "$DIR/kver"
	exit 0
fi

A=$DIR/apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$A/state" "$DIR/debs"
: > "$A/status"
set -- -o Dir::State="$A/state" -o Dir::State::Lists="$A/lists" \
	-o Dir::Cache="$A/cache" -o Dir::State::status="$A/status" \
	-o APT::Architecture=armhf -o APT::Architectures::=armhf \
	-o APT::Sandbox::User=root -o Debug::NoLocking=1
# an index that fails to download (a mirror mid-sync) is reported by apt;
# what matters is whether the packages below resolve
apt-get -qq "$@" update >"$A/update.log" 2>&1 || true
kver=$(apt-cache "$@" depends linux-image-armmp 2>/dev/null |
	sed -n 's/^ *Depends: linux-image-\([^ ]*-armmp\)$/\1/p' | head -n 1)
if [ -z "$kver" ]; then
	cat "$A/update.log" >&2
	echo "armhf-sysroot.sh: no linux-image-armmp in the armhf archive" >&2
	exit 1
fi
common=$(apt-cache "$@" depends "linux-headers-$kver" 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-headers-[^ ]*-common\)$/\1/p' | head -n 1)
rm -f "$DIR"/debs/*.deb
(cd "$DIR/debs" && apt-get -qq "$@" download "linux-image-$kver" \
	"linux-headers-$kver" "$common" linux-kbuild-6.1 busybox-static) >&2

rm -rf "$DIR/root" "$DIR/kbuild-armhf"
mkdir -p "$DIR/root"
for deb in "$DIR"/debs/*.deb; do
	case $deb in
	*/linux-kbuild-*) dpkg-deb -x "$deb" "$DIR/kbuild-armhf" ;;
	*) dpkg-deb -x "$deb" "$DIR/root" ;;
	esac
done
sed -i "s,^include /usr/src/,include $DIR/root/usr/src/," \
	"$DIR/root/usr/src/linux-headers-$kver/Makefile"

[ -x /usr/lib/linux-kbuild-6.1/scripts/basic/fixdep ] || {
	echo "armhf-sysroot.sh: no /usr/lib/linux-kbuild-6.1 (apt-get install linux-kbuild-6.1)" >&2
	exit 1
}
kb=$DIR/root/usr/lib/linux-kbuild-6.1
cp -a /usr/lib/linux-kbuild-6.1 "$kb"
real=$DIR/kbuild-armhf/usr/lib/linux-kbuild-6.1/scripts/mod/modpost.real-lsb-32
printf '#!/bin/sh\nexec qemu-arm -L /usr/arm-linux-gnueabihf %s "$@"\n' \
	"$real" > "$kb/scripts/mod/modpost"
chmod 755 "$kb/scripts/mod/modpost"

echo "$kver" > "$DIR/kver"
echo "$kver"
