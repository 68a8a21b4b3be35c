#!/usr/bin/env python3
"""Starts an installed systemd unit inside a chroot the way `systemctl start` would.

systemd does not run in the test's chroot, so the test starts each unit from the unit file the
playbook installed (and its drop-ins, /etc/systemd/system/UNIT.d/*.conf): this reads [Service]
Type=, User=, Group=, Environment=, EnvironmentFile=, WorkingDirectory=, ExecStartPre=,
ExecStart= and ExecStartPost= (with systemd's $VAR / ${VAR} expansion) and runs each command as

  nsenter --net --uts -t HOLDER -- chroot ROOT setpriv --reuid U --regid G --init-groups \\
      env -i <unit environment> sh -c 'cd WD && exec "$@"' - <argv>

so it runs in the test's network namespace (loopback only) as the unit's user. Like systemd:
every ExecStartPre must succeed, then ExecStart runs (Type=simple: in the background, detached,
its output to --output; Type=oneshot: to the end), then every ExecStartPost must succeed while
the main process stays alive (with $MAINPID, its pid: the exec chain above keeps it the daemon's).
A "+" prefix runs the line as root. Exit 0 when the unit is started, 1 (one line on stderr) when not.

usage: unitexec.py ROOT HOLDER_PID UNIT [--output FILE] [--print]
  --print   print the ExecStart command line instead of running anything
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import time

LIST_KEYS = ("Environment", "EnvironmentFile", "ExecStartPre", "ExecStart", "ExecStartPost")


def parse_unit(paths):
    """[Service] entries of a unit file and its drop-ins: {key: [values...]}. As in systemd, an
    empty assignment of a list key (ExecStart=) clears what came before."""
    entries = {}
    for path in paths:
        section = None
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
            key, value = (x.strip() for x in line.split("=", 1))
            if not value and key in LIST_KEYS:
                entries[key] = []
                continue
            entries.setdefault(key, []).append(value)
    return entries


def unit_files(root, unit):
    for d in ("etc/systemd/system", "lib/systemd/system", "usr/lib/systemd/system"):
        main = os.path.join(root, d, unit)
        if os.path.isfile(main):
            break
    else:
        raise SystemExit("unitexec: %s is not installed in %s" % (unit, root))
    dropins = sorted(glob.glob(os.path.join(root, "etc/systemd/system", unit + ".d", "*.conf")),
                     key=os.path.basename)
    return [main] + dropins


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


class Unit:
    def __init__(self, root, holder, unit):
        self.root, self.holder, self.name = root, holder, unit
        s = parse_unit(unit_files(root, unit))
        self.type = s.get("Type", ["simple"])[-1]
        self.user = s.get("User", ["root"])[-1]
        pw = passwd_entry(root, self.user)
        self.group = s.get("Group", [None])[-1] or pw[3]
        env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
               "HOME": pw[5], "USER": self.user, "LOGNAME": self.user, "SHELL": pw[6]}
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
        self.env = env
        self.wd = s.get("WorkingDirectory", ["/"])[-1].lstrip("-")  # systemd's default for a system unit
        self.pre = s.get("ExecStartPre", [])
        self.start = s.get("ExecStart", [])
        self.post = s.get("ExecStartPost", [])
        if not self.start or (len(self.start) > 1 and self.type != "oneshot"):
            raise SystemExit("unitexec: %s: expected one ExecStart, found %d" % (unit, len(self.start)))

    def command(self, line, extra_env=None):
        """(argv, failure ignored) of an Exec line, wrapped to run as the unit would; extra_env is
        what systemd adds for the line (MAINPID for ExecStartPost)."""
        env = dict(self.env, **(extra_env or {}))
        prefixes = re.match(r"[-@:+!]*", line).group(0)
        argv = expand(shlex.split(line[len(prefixes):]), env)
        user, group = ("root", "root") if ("+" in prefixes or "!" in prefixes) else (self.user, self.group)
        full = (["nsenter", "--net", "--uts", "-t", self.holder, "--", "chroot", self.root,
                 "setpriv", "--reuid", user, "--regid", group, "--init-groups",
                 "env", "-i"] + ["%s=%s" % kv for kv in sorted(env.items())]
                + ["sh", "-c", 'cd "$0" && exec "$@"', self.wd] + argv)
        return full, "-" in prefixes

    def run_steps(self, lines, what, main=None):
        """Runs Exec lines one after another (with $MAINPID once there is a main process); False
        (after one line on stderr) when one fails or the main process exits meanwhile."""
        for line in lines:
            argv, ignore = self.command(line, {"MAINPID": str(main.pid)} if main is not None else None)
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL)
            while p.poll() is None:
                if main is not None and main.poll() is not None:
                    p.kill()
                    p.wait()
                    print("unitexec: %s: the main process exited (status %d) while %s ran" % (self.name, main.returncode, what),
                          file=sys.stderr)
                    return False
                time.sleep(0.2)
            if p.returncode != 0 and not ignore:
                print("unitexec: %s: %s failed (status %d): %s" % (self.name, what, p.returncode, line), file=sys.stderr)
                return False
        return True

    def run(self, output):
        t0 = time.monotonic()
        if not self.run_steps(self.pre, "ExecStartPre"):
            return 1
        if self.type == "oneshot":
            if not (self.run_steps(self.start, "ExecStart") and self.run_steps(self.post, "ExecStartPost")):
                return 1
            print("unitexec: %s done in %.0f s" % (self.name, time.monotonic() - t0))
            return 0
        argv, _ = self.command(self.start[0])
        with open(output, "ab") as out:
            main = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        if not self.run_steps(self.post, "ExecStartPost", main):
            return 1
        if main.poll() is not None:
            print("unitexec: %s: the main process exited (status %d)" % (self.name, main.returncode), file=sys.stderr)
            return 1
        print("unitexec: %s started in %.0f s (main process %d)" % (self.name, time.monotonic() - t0, main.pid))
        return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("root")
    p.add_argument("holder")
    p.add_argument("unit")
    p.add_argument("--output", default=os.devnull, help="the main process's output (Type=simple)")
    p.add_argument("--print", action="store_true", help="print the ExecStart command line and exit")
    args = p.parse_args()
    unit = Unit(args.root, args.holder, args.unit)
    if args.print:
        print(" ".join(shlex.quote(a) for a in unit.command(unit.start[0])[0]))
        return 0
    return unit.run(args.output)


if __name__ == "__main__":
    sys.exit(main())
