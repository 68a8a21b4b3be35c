#!/usr/bin/env python3
"""Packs what the nodes get from this checkout into a few deterministic tar files.

Runs on the Ansible controller (role fpgamr, tasks/bundles.yml). Each bundle is rewritten only when its content
changed, so the copy to the nodes, and the whole playbook, stays idempotent. Prints one JSON
object: {"changed": bool, "bundles": {name: {"path": ..., "sha256": ..., "files": n}}, "missing": [...]}

Bundles:
  hadoop-jars-<version>.tar  lib/*.jar: the Hadoop runtime assembled from Maven Central
                             (mr-md5/target/lib); the Hadoop install in "jars" mode and the
                             class path of bin/fpgamr in every mode
  fpgamr.tar                 the project, laid out as in the checkout so bin/fpgamr finds its
                             jars: bin/fpgamr, */target/*.jar, energy/target/lib, energy's
                             jmx/, prometheus/ and grafana/ files
  native-<platform>.tar      native/*: the native libraries of one platform (linux-x86_64,
                             linux-aarch64, linux-armhf), taken out of the jni-fpga jar
  kernel.tar                 the DKMS source tree of kernel/ (dkms.conf, Kbuild, sources, include/)
"""
import argparse
import hashlib
import io
import json
import os
import stat
import sys
import tarfile
import zipfile

MTIME = 1700000000  # fixed, so a rebuild with the same bytes gives the same bundle
PLATFORMS = ("linux-x86_64", "linux-aarch64", "linux-armhf")


def is_shipped_jar(name):
    return (name.endswith(".jar") and not name.startswith("original-")
            and not name.endswith(("-sources.jar", "-javadoc.jar", "-tests.jar")))


def add_bytes(tar, arcname, data, mode):
    info = tarfile.TarInfo(arcname)
    info.size = len(data)
    info.mtime = MTIME
    info.mode = mode
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    tar.addfile(info, io.BytesIO(data))


def add_dir(tar, arcname):
    info = tarfile.TarInfo(arcname)
    info.type = tarfile.DIRTYPE
    info.mtime = MTIME
    info.mode = 0o755
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    tar.addfile(info)


def build(entries):
    """entries: {arcname: (bytes, mode)} -> tar bytes, sorted, with every parent directory."""
    buf = io.BytesIO()
    dirs = set()
    for name in entries:
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name in sorted(dirs | set(entries)):
            if name in entries:
                data, mode = entries[name]
                add_bytes(tar, name, data, mode)
            else:
                add_dir(tar, name)
    return buf.getvalue()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def is_regular(path):
    return stat.S_ISREG(os.lstat(path).st_mode)


def mode_of(path):
    return 0o755 if os.access(path, os.X_OK) else 0o644


def tree(src, root, arc_prefix, entries, keep=lambda rel: True):
    base = os.path.join(src, root)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for fn in sorted(filenames):
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, base)
            if is_regular(full) and keep(rel):
                entries[arc_prefix + rel.replace(os.sep, "/")] = (read(full), mode_of(full))


def write_if_changed(path, data):
    if os.path.exists(path) and read(path) == data:
        return False
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True, help="the fpgamr checkout")
    ap.add_argument("--out", required=True, help="the staging folder")
    ap.add_argument("--hadoop-version", required=True)
    ap.add_argument("--hadoop-jars", required=True, help="folder of the Hadoop runtime jars")
    ap.add_argument("--platform", action="append", default=[], help="platforms the inventory needs")
    a = ap.parse_args()
    src = os.path.abspath(a.src)
    os.makedirs(a.out, exist_ok=True)
    bundles = {}
    missing = []

    jars = {}
    if os.path.isdir(a.hadoop_jars):
        for fn in sorted(os.listdir(a.hadoop_jars)):
            if fn.endswith(".jar"):
                jars["lib/" + fn] = (read(os.path.join(a.hadoop_jars, fn)), 0o644)
    if not jars:
        missing.append(a.hadoop_jars + "/*.jar (run `mvn -DskipTests package` at the repo root)")
    else:
        bundles["hadoop-jars"] = ("hadoop-jars-%s.tar" % a.hadoop_version, jars)

    proj = {}
    launcher = os.path.join(src, "bin", "fpgamr")
    if os.path.isfile(launcher):
        proj["bin/fpgamr"] = (read(launcher), 0o755)
    else:
        missing.append(launcher)
    for module in sorted(os.listdir(src)):
        target = os.path.join(src, module, "target")
        if module.startswith(".") or not os.path.isdir(target):
            continue
        for fn in sorted(os.listdir(target)):
            if is_shipped_jar(fn) and os.path.isfile(os.path.join(target, fn)):
                proj["%s/target/%s" % (module, fn)] = (read(os.path.join(target, fn)), 0o644)
        # mr-md5/target/lib is the Hadoop runtime: the nodes link it to the hadoop-jars bundle.
        if module != "mr-md5" and os.path.isdir(os.path.join(target, "lib")):
            tree(src, os.path.join(module, "target", "lib"), "%s/target/lib/" % module, proj,
                 keep=lambda rel: rel.endswith(".jar") and "/" not in rel)
    if not any(k.startswith("mr-md5/target/mr-md5-") for k in proj):
        missing.append(os.path.join(src, "mr-md5/target/mr-md5-*.jar (run `mvn -DskipTests package`)"))
    for sub in ("jmx", "prometheus", "grafana"):
        if os.path.isdir(os.path.join(src, "energy", sub)):
            tree(src, os.path.join("energy", sub), "energy/%s/" % sub, proj,
                 keep=lambda rel: rel.endswith((".yml", ".yaml", ".json")))
    bundles["fpgamr"] = ("fpgamr.tar", proj)

    jni = sorted(f for f in os.listdir(os.path.join(src, "jni-fpga", "target"))
                 if is_shipped_jar(f)) if os.path.isdir(os.path.join(src, "jni-fpga", "target")) else []
    for platform in sorted(set(a.platform)):
        if platform not in PLATFORMS:
            print("unknown platform %s (known: %s)" % (platform, ", ".join(PLATFORMS)), file=sys.stderr)
            return 2
        libs = {}
        for jar in jni:
            with zipfile.ZipFile(os.path.join(src, "jni-fpga", "target", jar)) as z:
                for n in sorted(z.namelist()):
                    parts = n.split("/")
                    # <platform>/lib*.so, also under a native/ or META-INF/native/ prefix
                    if platform in parts[:-1] and parts[-1].endswith(".so"):
                        libs["native/" + parts[-1]] = (z.read(n), 0o644)
        bundles["native-" + platform] = ("native-%s.tar" % platform, libs)

    kernel = {}
    kdir = os.path.join(src, "kernel")
    if os.path.isfile(os.path.join(kdir, "dkms.conf")):
        # What `make -C kernel dist` puts in the DKMS tree: dkms.conf, Kbuild, the top-level
        # C sources and headers, and include/ (never build/ or test/).
        for fn in sorted(os.listdir(kdir)):
            full = os.path.join(kdir, fn)
            if is_regular(full) and (fn in ("dkms.conf", "Kbuild") or fn.endswith((".c", ".h"))):
                kernel[fn] = (read(full), 0o644)
        tree(src, os.path.join("kernel", "include"), "include/", kernel, keep=lambda rel: rel.endswith(".h"))
        bundles["kernel"] = ("kernel.tar", kernel)

    changed = False
    report = {}
    for key, (fname, entries) in bundles.items():
        data = build(entries)
        path = os.path.join(a.out, fname)
        changed |= write_if_changed(path, data)
        report[key] = {"path": path, "sha256": hashlib.sha256(data).hexdigest(), "files": len(entries),
                       "names": sorted(entries) if key.startswith("native-") else []}
    print(json.dumps({"changed": changed, "bundles": report, "missing": missing}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
