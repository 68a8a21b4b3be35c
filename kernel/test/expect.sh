# expect.sh: the verdict lines of the boot tests' guests, sourced by their init scripts
# (kernel/test/init.sh in the test initramfs, deploy/board/tests/guest-init.sh on the SD image's
# root): "ok - WHAT" or "not ok - WHAT", one a check, counted in P and F for the closing line.
P=0
F=0
ok() { P=$((P + 1)); echo "ok - $*"; }
nok() { F=$((F + 1)); echo "not ok - $*"; }
# expect WHAT CMD...: ok when CMD succeeds; what CMD prints stays on the console (why it failed)
expect() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
