#!/usr/bin/env python3
"""Runs an installed systemd unit's ExecStart inside a chroot, as systemd would have run it.

systemd does not run in the test's chroot, so the test starts each daemon from the unit file the
playbook installed: this reads [Service] User=, Group=, Environment=, EnvironmentFile=,
WorkingDirectory= and ExecStart= (with systemd's $VAR / ${VAR} expansion), and execs

  nsenter --net --uts -t HOLDER -- chroot ROOT setpriv --reuid U --regid G --init-groups \
      env -i <unit environment> sh -c 'cd WD && exec "$@"' - <ExecStart argv>

so the daemon runs in the test's network namespace (loopback only) as the unit's user.

usage: unitexec.py ROOT HOLDER_PID UNIT [--print]
"""
import os
import re
import shlex
import sys


def parse_unit(path):
    """[Service] entries of a unit file: {key: [values...]} (continuation lines joined)."""
    section = None
    entries = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().replace("\\\n", " ").splitlines()
    for line in lines:
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        if section != "Service" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        entries.setdefault(key.strip(), []).append(value.strip())
    return entries


def read_env_file(path):
    env = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith(("#", ";")) or "=" not in line:
                continue
            key, value = line.split("=", 1)
            words = shlex.split(value) if value else [""]
            env[key.strip()] = " ".join(words)
    return env


def expand(tokens, env):
    out = []
    for t in tokens:
        m = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)", t)
        if m:  # $VAR alone: split at whitespace, dropped when empty
            out.extend(env.get(m.group(1), "").split())
            continue
        t = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: env.get(m.group(1), ""), t)
        out.append(t)
    return out


def passwd_entry(root, user):
    with open(os.path.join(root, "etc/passwd"), encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split(":")
            if parts[0] == user:
                return parts
    raise SystemExit("unitexec: no user %s in %s/etc/passwd" % (user, root))


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    root, holder, unit = sys.argv[1], sys.argv[2], sys.argv[3]
    unit_path = os.path.join(root, "etc/systemd/system", unit)
    if not os.path.isfile(unit_path):
        unit_path = os.path.join(root, "lib/systemd/system", unit)
    s = parse_unit(unit_path)
    user = s.get("User", ["root"])[-1]
    pw = passwd_entry(root, user)
    group = s.get("Group", [None])[-1] or pw[3]
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
           "HOME": pw[5], "USER": user, "LOGNAME": user, "SHELL": pw[6]}
    for e in s.get("Environment", []):
        for word in shlex.split(e):
            if "=" in word:
                k, v = word.split("=", 1)
                env[k] = v
    for ef in s.get("EnvironmentFile", []):
        optional = ef.startswith("-")
        p = os.path.join(root, ef.lstrip("-").lstrip("/"))
        if os.path.isfile(p):
            env.update(read_env_file(p))
        elif not optional:
            raise SystemExit("unitexec: %s: EnvironmentFile %s missing" % (unit, ef))
    execs = s.get("ExecStart", [])
    if len(execs) != 1:
        raise SystemExit("unitexec: %s: expected one ExecStart, found %d" % (unit, len(execs)))
    cmd = execs[0].lstrip("-@:+!")
    argv = expand(shlex.split(cmd), env)
    wd = s.get("WorkingDirectory", [pw[5] if user != "root" else "/"])[-1].lstrip("-")
    full = (["nsenter", "--net", "--uts", "-t", holder, "--", "chroot", root,
             "setpriv", "--reuid", user, "--regid", group, "--init-groups",
             "env", "-i"] + ["%s=%s" % kv for kv in sorted(env.items())]
            + ["sh", "-c", 'cd "$0" && exec "$@"', wd] + argv)
    if "--print" in sys.argv[4:]:
        print(" ".join(shlex.quote(a) for a in full))
        return 0
    os.execvp(full[0], full)
    return 1


if __name__ == "__main__":
    sys.exit(main())
