#!/bin/sh
# Print the version of the kernel that Debian's linux-image-amd64 installs
# (e.g. 6.1.0-56-amd64).  Never the running kernel: this machine's has no
# headers.  Falls back to the newest /boot/vmlinuz-*-amd64.
set -e
v=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
	sed -n 's/^linux-image-\([^ ,|]*\).*/\1/p')
v=${v%-unsigned}
if [ -z "$v" ] || [ ! -e "/boot/vmlinuz-$v" ]; then
	v=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sed 's,^/boot/vmlinuz-,,' |
		sort -V | tail -n 1)
fi
if [ -z "$v" ]; then
	echo "kver.sh: no linux-image-amd64 installed (make deps)" >&2
	exit 1
fi
echo "$v"
