#!/usr/bin/env bash
# The DE10-Nano's bootloader and device tree from Debian's u-boot source package,
# cached by their inputs under $FPGAMR_CACHE (default /var/cache/fpgamr):
#   build.sh uboot OUT   OUT/u-boot-with-spl.sfp (the type-a2 partition: four 64 KiB SPL
#                        copies, then U-Boot), OUT/u-boot-spl and OUT/u-boot (ELF),
#                        OUT/sdram_config.h (the qts header it was built with)
#   build.sh dtb OUT     OUT/socfpga_cyclone5_de10_nano.dtb (the board's DTS with
#                        scripts/board_overlay.py's overlay applied), OUT/fpgamr-board.dtso
# A cached build is copied to OUT in seconds; a missing one is built in a scratch folder
# under OUT, then stored whole (nothing half-written in the cache).
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=../de10-nano.conf
. "$here/de10-nano.conf"
regmap="$root/hdl/regmap/md5acc.json"
cache="${FPGAMR_CACHE:-/var/cache/fpgamr}"
jobs="${JOBS:-2}"
cross=arm-linux-gnueabihf-

die() { echo "board: $*" >&2; exit 1; }
usage() { echo "usage: build.sh uboot|dtb OUT" >&2; exit 2; }
[ $# -eq 2 ] || usage
what="$1"; out="$2"
case "$what" in uboot|dtb) ;; *) usage ;; esac
mkdir -p "$out"; out="$(cd "$out" && pwd)"

# the source package's version that apt offers (the deb-src lines of bin/install-deps)
version="$(cd "$out" && apt-get source -qq --print-uris "$UBOOT_SOURCE" 2>/dev/null |
	sed -n "s/^'[^']*' ${UBOOT_SOURCE}_\([^ ]*\)\.dsc .*/\1/p")"
[ -n "$version" ] || die "apt offers no source of $UBOOT_SOURCE: run bin/install-deps --test (it adds the deb-src lines)"
case "$version" in "$UBOOT_UPSTREAM"+*) ;; *) die "$UBOOT_SOURCE $version is not the $UBOOT_UPSTREAM this board is checked with (de10-nano.conf)" ;; esac

# the key: every input of what is built, the source by its version
key() {
	{
		echo "$what $UBOOT_SOURCE $version"
		cat "$here/de10-nano.conf" "$here/scripts/build.sh"
		if [ "$what" = uboot ]; then
			python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["design"]["data_w"])' "$regmap"
			cat "$here/scripts/port_config.py"
		else
			python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["platform"], r["window_bytes"])' "$regmap"
			cat "$here/scripts/board_overlay.py" "$root/hdl/scripts/platform_gen.py"
		fi
	} | sha256sum | cut -c1-16
}
store="$cache/board/$what-$(key)"

# Debian's source, unpacked with its patches (the download kept in the cache)
source_tree() {
	local dl="$cache/board/src-$version" tree="$out/work/$UBOOT_SOURCE-$version"
	if [ ! -f "$dl/.complete" ]; then
		rm -rf "$dl.tmp"; mkdir -p "$dl.tmp"
		(cd "$dl.tmp" && apt-get source -qq --download-only "$UBOOT_SOURCE=$version" >/dev/null 2>&1) ||
			die "apt-get source $UBOOT_SOURCE=$version failed (network, or the deb-src lines of bin/install-deps)"
		touch "$dl.tmp/.complete"; rm -rf "$dl"; mv "$dl.tmp" "$dl"
	fi
	if [ ! -f "$tree/.unpacked" ]; then
		rm -rf "$tree"; mkdir -p "$out/work"
		dpkg-source -q -x "$dl/${UBOOT_SOURCE}_$version.dsc" "$tree" >"$out/work/dpkg-source.log" 2>&1 ||
			die "dpkg-source -x failed: $out/work/dpkg-source.log"
		# the board's own header, before the build replaces it
		cp "$tree/$UBOOT_QTS/sdram_config.h" "$tree/$UBOOT_QTS/sdram_config.h.upstream"
		touch "$tree/.unpacked"
	fi
	echo "$tree"
}

build_uboot() {
	local src="$1" dst="$2" obj="$out/work/uboot-obj"
	python3 "$here/scripts/port_config.py" "$regmap" "$src/$UBOOT_QTS/sdram_config.h.upstream" "$dst/sdram_config.h"
	cp "$dst/sdram_config.h" "$src/$UBOOT_QTS/sdram_config.h"
	rm -rf "$obj"
	# the release's date, not the build's, in the version string (CONFIG_TIMESTAMP)
	export SOURCE_DATE_EPOCH; SOURCE_DATE_EPOCH="$(dpkg-parsechangelog -l "$src/debian/changelog" -STimestamp)"
	make -s -C "$src" O="$obj" CROSS_COMPILE=$cross "$UBOOT_DEFCONFIG" >/dev/null
	make -s -C "$src" O="$obj" CROSS_COMPILE=$cross -j"$jobs" >"$out/work/uboot-build.log" 2>&1 ||
		die "U-Boot build failed: $out/work/uboot-build.log"
	cp "$obj/u-boot-with-spl.sfp" "$obj/u-boot" "$dst/"
	cp "$obj/spl/u-boot-spl" "$dst/u-boot-spl"
}

build_dtb() {
	local src="$1" dst="$2" w="$out/work/dtb"
	rm -rf "$w"; mkdir -p "$w"
	python3 "$here/scripts/board_overlay.py" "$regmap" "$CMA_SIZE" "$CMA_ALIGN" "$CMA_LIMIT" >"$dst/fpgamr-board.dtso"
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp -I "$src/arch/arm/dts" -I "$src/include" \
		-o "$w/base.dts" "$src/arch/arm/dts/$BOARD_DTS.dts"
	# -@: the labels the overlay refers to (&sdr, &fpga_bridge0, ...)
	dtc -q -@ -I dts -O dtb -o "$w/base.dtb" "$w/base.dts"
	# -q: an overlay's fragments cannot know their targets' #address-cells
	dtc -q -@ -I dts -O dtb -o "$w/fpgamr-board.dtbo" "$dst/fpgamr-board.dtso"
	fdtoverlay -i "$w/base.dtb" -o "$dst/$BOARD_DTS.dtb" "$w/fpgamr-board.dtbo"
}

if [ ! -f "$store/.complete" ]; then
	echo "board: building $what from $UBOOT_SOURCE $version (cache $store)" >&2
	src="$(source_tree)"
	rm -rf "$store.tmp"; mkdir -p "$store.tmp"
	"build_$what" "$src" "$store.tmp"
	echo "$version" >"$store.tmp/source-version"
	touch "$store.tmp/.complete"; rm -rf "$store"; mv "$store.tmp" "$store"
fi
find "$store" -maxdepth 1 -type f ! -name .complete -exec cp {} "$out/" \;
echo "board: $what in $out (cache $store)" >&2
