#!/usr/bin/env python3
"""Crash-anywhere test of photopick's verbs (issues 27 and 31). Python 3 standard library only.

Runs `get`, `sync --delete`, `tag add`/`tag rm`, `edit` and `rm` against `photopick serve` with injected faults,
kills each with SIGKILL after a random delay, then runs the same command again to completion, and
after every run checks:

- outside the target folder nothing was created, changed or removed (a sandbox holding the target
  folders, sibling folders, files and symbolic links is snapshotted with the SHA-256 of every file);
- no file of the user's was changed or removed: each target folder is seeded with files that have
  the names photopick will use, a `NAME.part` of a photo it will download, byte-identical `cp -p`
  copies of its own downloads, downloads edited with their length and mtime kept (as `exiftool -P`
  does) or of photos with no capture time, symbolic links out of the folder (also at a `.part`
  name) and links from outside into it;
- every finished file photopick wrote is byte-identical to the server's original (fetched through
  the API once, checked against `Repr-Digest` and the photo's `bytes`), and every download the
  JSON Lines events report is the asked photo's, inside the asked folder, and not a user's file;
- after the completing run: `get` has every asked photo, `sync --delete` leaves exactly the query's
  photos, and the server's tags (read through the API) are the intended ones; after a killed
  `tag` run every tag of every photo is either as before or as intended;
- `edit` (a title with a tab and a newline, or a templated name): after a killed run each photo's
  field is as before or as intended, after the completing run as intended, and no other photo changed;
- `rm` (originals kept outside the sandbox): after every run the photos gone from the server are
  exactly those the purge log calls deleted, each kept original is byte-identical to the server's,
  and after the completing run every asked photo is gone and every planned deletion has an outcome.

The n-th run's command and kill delay depend only on the seed and n (what the killed process had
done by then depends on timing), so `--seed S` repeats a run's sequence; each violation is printed
in one line with the seed and run number. The photopick folders (XDG_*) are outside the sandbox.

  Tests/e2e/crash.py                        # 60 kills, a random seed (printed)
  Tests/e2e/crash.py --kills 90 --seed 7    # more kills, a given seed
  PHOTOPICK=/path/to/photopick Tests/e2e/crash.py --keep   # keep the temporary folder
"""

import argparse
import base64
import hashlib
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KEY = "pp_test_crash_key"
# The culling marks whose tags replace each other (default names, no config).
FAMILIES = [{"Pick", "Reject"}, {"1 star", "2 stars", "3 stars", "4 stars", "5 stars"},
            {"Red", "Yellow", "Green", "Blue", "Purple"}]
TAG_NAMES = ["crash-one", "Crash Ω ü", "Pick", "Reject"]


def parse_args():
    parser = argparse.ArgumentParser(description="Kill photopick get, sync --delete, tag, edit and rm at random moments; check nothing of the user's is touched.")
    parser.add_argument("--kills", type=int, default=60, help="SIGKILLs to land on a running process (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the commands, the delays, the server's library and its faults (default: random, printed)")
    parser.add_argument("--max-delay", type=float, default=1.5, help="kill after a delay drawn from 0 to this many seconds (default 1.5)")
    parser.add_argument("--photos", type=int, default=300, help="photos in the served library (default 300)")
    parser.add_argument("--megapixels", type=float, default=0.3, help="size of the served originals (default 0.3)")
    parser.add_argument("--fault-rate", type=float, default=0.2, help="the server's injected fault rate (default 0.2)")
    parser.add_argument("--stop-after", type=int, default=None, help="stop after this run (to reproduce one)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and print its path")
    parser.add_argument("--verbose", action="store_true", help="print every violation, not just the first of each kind and path")
    return parser.parse_args()


# ---------------------------------------------------------------------------------------------
# The server's own view, through its API. It tries again on a failure, so it reads a faulty server.

class API:
    def __init__(self, base, key):
        self.base, self.key = base.rstrip("/"), key

    def _open(self, path, timeout=30):
        request = urllib.request.Request(self.base + path, headers={"Authorization": "Bearer " + self.key})
        return urllib.request.urlopen(request, timeout=timeout)

    def get_json(self, path):
        last = None
        for attempt in range(80):
            try:
                with self._open(path) as response:
                    return json.loads(response.read())
            except Exception as error:  # faults: 5xx, 429, resets, truncated bodies, stalls
                last = error
                time.sleep(0.05 + 0.05 * min(attempt, 10))
        raise RuntimeError(f"GET {path} kept failing: {last}")

    def walk(self, resource):
        items, cursor = [], None
        while True:
            query = {"limit": "100"} | ({"cursor": cursor} if cursor else {})
            page = self.get_json("/" + resource + "?" + urllib.parse.urlencode(query))
            items += page["data"]
            cursor = (page.get("pagination") or {}).get("nextCursor")
            if not cursor or not (page.get("pagination") or {}).get("hasMore", True):
                return items

    def original(self, photo):
        """The photo's original bytes, checked against Repr-Digest and its advertised length."""
        last = None
        for attempt in range(80):
            try:
                with self._open(f"/photos/{photo['id']}/download?size=original&format=original") as response:
                    body = response.read()
                    digest = response.headers.get("Repr-Digest", "")
                match = re.search(r"sha-256=:([A-Za-z0-9+/=]+):", digest)
                if len(body) != photo["bytes"]:
                    raise ValueError(f"{len(body)} bytes, {photo['bytes']} advertised")
                if match and base64.b64decode(match.group(1)) != hashlib.sha256(body).digest():
                    raise ValueError("Repr-Digest mismatch")
                return body
            except Exception as error:
                last = error
                time.sleep(0.05 + 0.05 * min(attempt, 10))
        raise RuntimeError(f"the original of photo {photo['id']} could not be fetched: {last}")

    def tag_state(self):
        """({photo id: frozenset of tag names}, [tag names])."""
        tags = self.walk("tags")
        names = {t["id"]: t["name"] for t in tags}
        photos = self.walk("photos")
        return {p["id"]: frozenset(names.get(i, f"#{i}") for i in p.get("tagIds", [])) for p in photos}, [t["name"] for t in tags]


# ---------------------------------------------------------------------------------------------
# Snapshots of the sandbox: every entry by its path relative to the sandbox, never following a link.

class Hasher:
    def __init__(self):
        self.cache = {}

    def sha(self, path, info):
        key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        if key not in self.cache:
            digest = hashlib.sha256()
            with open(path, "rb") as file:
                for block in iter(lambda: file.read(1 << 20), b""):
                    digest.update(block)
            self.cache[key] = digest.hexdigest()
        return self.cache[key]


def snapshot(root, hasher):
    entries = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        relative = os.path.relpath(folder, root)
        for name in dirs + files:
            path = os.path.join(folder, name)
            key = os.path.normpath(os.path.join(relative, name))
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue
            if stat.S_ISLNK(info.st_mode):
                entries[key] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                entries[key] = ("dir",)
            elif stat.S_ISREG(info.st_mode):
                try:
                    entries[key] = ("file", info.st_size, info.st_mtime_ns, hasher.sha(path, info))
                except OSError:
                    entries[key] = ("file", info.st_size, info.st_mtime_ns, "unreadable")
            else:
                entries[key] = ("other", stat.S_IFMT(info.st_mode))
    return entries


def describe(entry):
    if entry is None:
        return "nothing"
    if entry[0] == "file":
        return f"file of {entry[1]} bytes, sha256 {entry[3][:12]}, mtime {entry[2] / 1e9:.3f}"
    if entry[0] == "link":
        return f"link to {entry[1]}"
    return entry[0]


def shown(path):
    return ascii(path)[1:-1]


# ---------------------------------------------------------------------------------------------

class Harness:
    def __init__(self, args):
        self.args = args
        self.seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1_000_000)
        self.binary = os.environ.get("PHOTOPICK", ".build/debug/photopick")
        if not os.path.isabs(self.binary):
            self.binary = os.path.join(ROOT, self.binary)
        self.tmp = tempfile.mkdtemp(prefix="photopick-crash.")
        self.sandbox = os.path.join(self.tmp, "sandbox")
        self.hasher = Hasher()
        self.violations = []       # (run, line)
        self.reported = set()      # (kind, path) already printed
        self.pending = []          # this run's violation lines, printed after its line
        self.ignored = set()       # user files found changed or removed: reported once, then no longer watched
        self.checks = 0
        self.kills = 0
        self.runs_passed = 0
        self.runs_failed = 0
        self.server = None
        self.user = {}             # sandbox-relative path -> the entry it must keep
        self.env = {k: v for k, v in os.environ.items() if k not in ("PHOTOPICK_API_KEY", "NO_COLOR")}
        self.env.update({
            "HOME": os.path.join(self.tmp, "home"),
            "XDG_DATA_HOME": os.path.join(self.tmp, "xdg", "data"),
            "XDG_STATE_HOME": os.path.join(self.tmp, "xdg", "state"),
            "XDG_CONFIG_HOME": os.path.join(self.tmp, "xdg", "config"),
            "XDG_CACHE_HOME": os.path.join(self.tmp, "xdg", "cache"),
            "PHOTOPICK_API_KEY": KEY,
        })
        os.makedirs(self.env["HOME"])

    # -- reporting

    def violation(self, run, kind, path, text):
        self.violations.append((run, text))
        self.current_failed = True
        key = (kind, path)
        if self.args.verbose or key not in self.reported:
            self.reported.add(key)
            self.pending.append(f"VIOLATION seed={self.seed} run={run}: {text}")

    def check(self, ok, run, kind, path, text):
        self.checks += 1
        if not ok:
            self.violation(run, kind, path, text)
        return ok

    # -- the binary and the server

    def wait_for_binary(self):
        """A copy of the binary, so that a rebuild during the run neither stops it nor changes the code under test."""
        for _ in range(600):  # it may be missing, or being written, while it is rebuilt
            try:
                if os.access(self.binary, os.X_OK):
                    copy = os.path.join(self.tmp, "photopick")
                    shutil.copy2(self.binary, copy)
                    if subprocess.run([copy, "--help"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30).returncode == 0:
                        built = os.stat(copy).st_mtime
                        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(built))
                        print(f"# {os.path.relpath(self.binary, ROOT)} built {when}; {self.revision(built)}", flush=True)
                        self.binary = copy
                        return
            except (OSError, subprocess.SubprocessError):
                pass
            time.sleep(0.5)
        sys.exit(f"not ok - no executable photopick at {self.binary} (build it, or set PHOTOPICK)")

    @staticmethod
    def revision(built):
        """HEAD, and whether Sources changed after the binary was built (then it is not HEAD's code)."""
        def git(*args):
            return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout.strip()
        try:
            head = git("rev-parse", "--short", "HEAD")
            last = git("log", "-1", "--format=%ct %h", "--", "Sources", "Package.swift")
            dirty = git("status", "--porcelain", "--untracked-files=no", "--", "Sources")
        except OSError:
            return "commit unknown"
        text = f"HEAD {head}"
        if last and int(last.split()[0]) > built:
            text += f", but Sources changed in {last.split()[1]} after the build"
        if dirty:
            text += f", {len(dirty.splitlines())} files under Sources changed and not committed"
        return text

    def start_server(self):
        log = open(os.path.join(self.tmp, "server.out"), "w")
        self.server = subprocess.Popen(
            [self.binary, "serve", "--data", os.path.join(self.tmp, "server"), "--port", "0", "--key", KEY,
             "--rate-limit", "100000", "--photos", str(self.args.photos), "--original-megapixels", str(self.args.megapixels),
             "--fault-rate", str(self.args.fault_rate), "--latency", "150", "--seed", str(self.seed)],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=self.env)
        for _ in range(300):
            text = open(os.path.join(self.tmp, "server.out"), errors="replace").read()
            match = re.search(r"^PhotoPick server at (http://\S+)", text, re.M)
            if match:
                url = match.group(1).rstrip("/")
                self.url = url if url.endswith("/api/v1") else url + "/api/v1"
                self.api = API(self.url, KEY)
                return
            if self.server.poll() is not None:
                sys.exit(f"not ok - photopick serve exited before it was ready:\n{text}")
            time.sleep(0.1)
        sys.exit("not ok - photopick serve printed no URL")

    def command(self, args):
        return [self.binary] + args

    def run_to_end(self, args, name, timeout=60):
        """Runs a command to its end; (exit code, stdout, stderr)."""
        out, err = os.path.join(self.tmp, name + ".out"), os.path.join(self.tmp, name + ".err")
        with open(out, "wb") as stdout, open(err, "wb") as stderr:
            process = subprocess.Popen(self.command(args), stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL, env=self.env)
            try:
                code = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                code = "timeout"
        return code, open(out, "rb").read().decode("utf-8", "replace"), open(err, "rb").read().decode("utf-8", "replace")

    def photopick(self, args):
        """The verb's arguments with --api-url, before a `--` that ends the options."""
        at = args.index("--") if "--" in args else len(args)
        return args[:at] + ["--api-url", self.url] + args[at:]

    # -- setup

    def setup(self):
        print(f"# seed {self.seed}: Tests/e2e/crash.py --seed {self.seed} --kills {self.args.kills} repeats this run's commands and delays", flush=True)
        self.wait_for_binary()
        self.start_server()
        photos = self.api.walk("photos")
        self.photos = {p["id"]: p for p in photos}
        rng = random.Random(f"{self.seed}/setup")
        # The catalogue, and the sync queries: a wide one, and a narrow one inside it, so that each
        # sync --delete in turn fetches and deletes. The CLI itself says which photos each matches.
        code, out, err = self.run_to_end(self.photopick(["ls", "--format", "{id}\t{taken:%Y-%m}"]), "setup-ls")
        if code != 0:
            sys.exit(f"not ok - photopick ls exited {code}: {err}")
        taken = [line.split("\t")[1] for line in out.splitlines()]
        months = sorted({m for m in taken if re.fullmatch(r"\d{4}-\d{2}", m)})
        undated = sum(1 for m in taken if m not in months)
        # Estimated from the listing, then asked of photopick itself: Q1 is every photo from a month on,
        # and the undated; Q2 the later part of those, so between them some dated photos and the undated.
        candidates = []
        for index, wide in enumerate(months):
            size1 = undated + sum(1 for m in taken if m in months and m >= wide)
            for narrow in months[index + 1:]:
                size2 = sum(1 for m in taken if m in months and m >= narrow)
                if 15 <= size1 <= 80 and size2 >= 8 and size1 - undated - size2 >= 4:
                    candidates.append((abs(size1 - 35) + abs(size2 - (size1 - undated) / 2), wide, narrow))
        choice = None
        for _, wide, narrow in sorted(candidates)[:5]:
            q1, q2 = f"-taken<{wide}", f"taken>={narrow}"
            ids1, ids2 = self.matching(q1), self.matching(q2)
            dated = [i for i in ids1 - ids2 if self.photos[i].get("takenAt")]
            if ids2 <= ids1 and len(dated) >= 4 and len(ids2) >= 8:
                choice = (q1, ids1, q2, ids2)
                break
        if not choice:
            sys.exit(f"not ok - no pair of sync queries fits this library ({len(months)} months, {undated} undated)")
        self.q1, self.ids1, self.q2, self.ids2 = choice
        undated = sorted(i for i in self.ids1 - self.ids2 if not self.photos[i].get("takenAt"))
        dated_gone = sorted(i for i in self.ids1 - self.ids2 if self.photos[i].get("takenAt"))
        staying = sorted(self.ids2)
        everyone = sorted(self.photos)
        outside_sync = [i for i in everyone if i not in self.ids1]
        self.get_pool = sorted(rng.sample(outside_sync, min(100, len(outside_sync))))
        # Roles: the photos whose names, partial files and copies the user's files take.
        self.roles = {}
        pool = list(self.get_pool)
        rng.shuffle(pool)
        for folder in ("get-a", "get-b"):
            picked = [pool.pop() for _ in range(8)]
            self.roles[folder] = dict(zip(["same", "part", "copy", "link", "linkpart", "renamed", "edited", "edited-append"], picked))
        rng.shuffle(staying)
        rng.shuffle(dated_gone)
        self.roles["sync"] = {"same": staying[0], "part": staying[1], "link": staying[2], "linkpart": staying[3],
                              "copy": dated_gone[0], "renamed": dated_gone[1], "edited": dated_gone[2],
                              "edited-append": dated_gone[3]}
        if undated:
            self.roles["sync"]["edited-nodate"] = undated[0]
        # Originals of every photo a run may fetch, once, through the API.
        wanted = sorted(set(self.get_pool) | self.ids1)
        started = time.time()
        with ThreadPoolExecutor(8) as pool_:
            bodies = list(pool_.map(lambda i: self.api.original(self.photos[i]), wanted))
        self.original = {i: hashlib.sha256(b).hexdigest() for i, b in zip(wanted, bodies)}
        self.by_sha = {sha: i for i, sha in self.original.items()}
        print(f"# library: {len(self.photos)} photos; sync '{self.q1}' ({len(self.ids1)}) and '{self.q2}' ({len(self.ids2)}); "
              f"get from {len(self.get_pool)}; {len(wanted)} originals fetched in {time.time() - started:.1f} s", flush=True)
        self.seed_sandbox(rng)
        self.tag_pool = sorted(rng.sample(everyone, 40))
        # Edits rename photos and rm deletes them: their pools stay clear of what get and sync fetch.
        free = [i for i in outside_sync if i not in set(self.get_pool) and i not in set(self.tag_pool)]
        rng.shuffle(free)
        self.edit_pool, self.rm_pool = sorted(free[:30]), sorted(free[30:])
        self.gone = set()
        self.kept = os.path.join(self.tmp, "kept")
        self.fields = {i: {"title": self.photos[i].get("title"), "filename": self.photos[i]["filename"]} for i in self.edit_pool}
        with ThreadPoolExecutor(8) as pool_:
            bodies = list(pool_.map(lambda i: self.api.original(self.photos[i]), self.rm_pool))
        self.original.update({i: hashlib.sha256(b).hexdigest() for i, b in zip(self.rm_pool, bodies)})
        self.model, names = self.api.tag_state()
        self.check_unique_tags(0, names)

    def matching(self, query):
        code, out, err = self.run_to_end(self.photopick(["ls", "--format", "{id}", "--", query]), "setup-query")
        if code != 0:
            sys.exit(f"not ok - photopick ls {query} exited {code}: {err}")
        return {int(line) for line in out.split()}

    def clean_get(self, ids):
        """A first clean get of the role photos into sandbox/clean: the names photopick uses, and files to cp -p."""
        folder = os.path.join(self.sandbox, "clean")
        for attempt in range(5):
            code, out, err = self.run_to_end(self.photopick(["get", "--ids", ",".join(map(str, ids)), "--to", folder, "--jsonl", "--concurrency", "8"]), "setup-get")
            if code == 0:
                break
        else:
            sys.exit(f"not ok - the clean get exited {code}: {err}")
        names = {}
        for event in self.events(out):
            if event.get("event") in ("done", "skipped"):
                names[event["id"]] = event["path"]
        missing = [i for i in ids if i not in names]
        if missing:
            sys.exit(f"not ok - the clean get reported no file for {missing}")
        return names

    def seed_sandbox(self, rng):
        os.makedirs(self.sandbox)
        role_ids = sorted({i for roles in self.roles.values() for i in roles.values()})
        clean = self.clean_get(role_ids)
        name = {i: os.path.basename(path) for i, path in clean.items()}
        for path in clean.values():
            if self.hasher.sha(path, os.lstat(path)) != self.original[self.photo_of_path(clean, path)]:
                sys.exit(f"not ok - the clean get's {shown(path)} is not the original")
        s = self.sandbox
        os.makedirs(os.path.join(s, "outside", "deep"))
        os.makedirs(os.path.join(s, "sync.bak"))
        self.write(os.path.join(s, "top.txt"), b"a file beside the target folders\n")
        self.write(os.path.join(s, "outside", "victim.txt"), b"a link in a target folder points here\n")
        self.write(os.path.join(s, "outside", "victim-part.txt"), b"a link at a .part name points here\n")
        self.write(os.path.join(s, "outside", "deep", "photo.jpg"), rng.randbytes(3000))
        self.write(os.path.join(s, "sync.bak", "old.jpg"), rng.randbytes(2000))
        for folder in ("get-a", "get-b", "sync"):
            f = os.path.join(s, folder)
            roles = self.roles[folder]
            os.makedirs(os.path.join(f, "mine"))
            self.write(os.path.join(f, "notes.txt"), f"the user's notes in {folder}\n".encode())
            self.write(os.path.join(f, "mine", "keep.jpg"), rng.randbytes(5000))
            # The name photopick would give a photo, taken by a file of the user's.
            self.write(os.path.join(f, name[roles["same"]]), b"the user's own file, not the photo\n" + rng.randbytes(700))
            # The user's own partial file, at the .part name of a photo photopick will download.
            self.write(os.path.join(f, name[roles["part"]] + ".part"), b"the user's own half-written file\n" * 40)
            # A byte-identical copy of photopick's download (cp -p), at its name and under another.
            shutil.copy2(clean[roles["copy"]], os.path.join(f, name[roles["copy"]]))
            shutil.copy2(clean[roles["renamed"]], os.path.join(f, "copy of " + name[roles["renamed"]]))
            # Links out of the folder: at a photo's name, at a .part name, and to a folder.
            os.symlink(os.path.join("..", "outside", "victim.txt"), os.path.join(f, name[roles["link"]]))
            os.symlink(os.path.join(s, "outside", "victim-part.txt"), os.path.join(f, name[roles["linkpart"]] + ".part"))
            os.symlink(os.path.join("..", "outside"), os.path.join(f, "escape"))
            # Links from outside into the folder.
            os.symlink(os.path.join("..", folder, "notes.txt"), os.path.join(s, "outside", f"link-into-{folder}"))
            os.symlink(folder, os.path.join(s, f"link-to-{folder}"))
        self.name = name
        # Everything there now is the user's, every target folder's content included.
        for path, entry in snapshot(self.sandbox, self.hasher).items():
            if not path.startswith("clean/"):
                self.user[path] = entry
        self.edited = {folder: False for folder in ("get-a", "get-b", "sync")}

    def photo_of_path(self, mapping, path):
        return next(i for i, p in mapping.items() if p == path)

    @staticmethod
    def write(path, data):
        with open(path, "wb") as file:
            file.write(data)

    @staticmethod
    def events(text):
        events = []
        for line in text.splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                pass  # the line a kill cut short
        return events

    def edit_downloads(self, folder, after, run):
        """After the first completed run into a folder, the user edits some of photopick's downloads there."""
        roles = self.roles[folder]
        ours = {}
        for path, entry in after.items():
            if path.startswith(folder + "/") and entry[0] == "file" and path not in self.user and entry[3] in self.by_sha:
                ours.setdefault(self.by_sha[entry[3]], path)
        edits = []
        for role in ("edited", "edited-nodate", "edited-append"):
            photo = roles.get(role)
            if photo is None or photo not in ours:
                continue
            path = os.path.join(self.sandbox, ours[photo])
            info = os.lstat(path)
            data = bytearray(open(path, "rb").read())
            if role == "edited-append":
                data += b"\0"  # an edit that changes the length
                self.write(path, bytes(data))
            else:
                data[len(data) // 2] ^= 0xFF  # one byte, the length kept
                self.write(path, bytes(data))
                if role == "edited":
                    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))  # the mtime restored, as exiftool -P does
            self.user[ours[photo]] = snapshot_entry(path, self.hasher)
            edits.append(f"{role} {shown(ours[photo])}")
        if edits:
            print(f"#   the user edits in {folder}: {', '.join(edits)}", flush=True)
        self.edited[folder] = True

    def user_deletes(self, run, folder):
        """Before a run the user deletes about a third of photopick's finished files in the folder, so it has work to do."""
        rng = random.Random(f"{self.seed}/user/{run}")
        ours = sorted(path for path, entry in snapshot(self.sandbox, self.hasher).items()
                      if path.startswith(folder + "/") and entry[0] == "file" and not path.endswith(".part")
                      and path not in self.user and path not in self.ignored)
        for path in ours:
            if rng.random() < 1 / 3:
                os.unlink(os.path.join(self.sandbox, path))

    # -- checks

    def check_files(self, run, verb, folder, before, after, events, complete, asked):
        label = f"{verb} (run {run}, {'completing run' if complete else 'killed run'})"
        # 1. Nothing outside the target folder created, changed or removed.
        inside = folder + "/"
        for path in sorted(set(before) | set(after)):
            if path.startswith(inside):
                continue
            was, now = before.get(path), after.get(path)
            self.check(was == now, run, "outside", path,
                       f"{label}: outside {folder}/, {shown(path)} was {describe(was)}, is {describe(now)}")
        # 2. Every file of the user's as it was (one found changed is reported once, then no longer watched).
        for path, entry in sorted(self.user.items()):
            now = after.get(path)
            if not self.check(now == entry, run, "user", path, f"{label}: the user's {shown(path)} was {describe(entry)}, is {describe(now)}"):
                del self.user[path]
                self.ignored.add(path)
        # 3. Every finished file photopick wrote in the folder is one of the originals, whole.
        copies = {}
        for path, entry in sorted(after.items()):
            if not path.startswith(inside) or path in self.user or path in self.ignored:
                continue
            if entry[0] == "file":
                if path.endswith(".part"):
                    self.check(not complete, run, "part-left", path, f"{label}: a partial file is left after the run completed: {shown(path)}")
                    continue
                ok = self.check(entry[3] in self.by_sha, run, "corrupt", path,
                                f"{label}: {shown(path)} ({entry[1]} bytes) is byte-identical to none of the originals")
                if ok:
                    copies.setdefault(self.by_sha[entry[3]], []).append(path)
            elif entry[0] != "dir":
                self.check(False, run, "odd", path, f"{label}: photopick made {describe(entry)} at {shown(path)}")
        # 4. What the events report: the asked photo, inside the asked folder, a file photopick wrote.
        reported = {}
        for event in events:
            if event.get("event") not in ("done", "skipped"):
                continue
            photo, full = event.get("id"), event.get("path", "")
            path = os.path.relpath(os.path.abspath(full), self.sandbox)
            reported[photo] = path
            if not self.check(path.startswith(inside), run, "reported-outside", path,
                              f"{label}: photo {photo} reported as {event['event']} at {shown(full)}, outside the asked folder {folder}/"):
                continue
            entry = after.get(path)
            if entry is None and not complete:
                continue  # gone since, by this very run
            if path in self.user or path in self.ignored:
                # A file of the user's that holds the original's bytes may be reported as already there.
                self.check(entry is not None and entry[0] == "file" and entry[3] == self.original.get(photo), run, "reported-user", path,
                           f"{label}: photo {photo} reported as {event['event']} at the user's {shown(path)}, which is {describe(entry)}, not its original")
                continue
            self.check(entry is not None and entry[0] == "file" and entry[3] == self.original.get(photo), run, "wrong", path,
                       f"{label}: photo {photo} reported at {shown(path)}, which is {describe(entry)}, not its original")
        if not complete:
            return
        # 5. The completed run did what was asked.
        duplicated = {photo: paths for photo, paths in copies.items() if len(paths) > 1}
        for photo, paths in sorted(duplicated.items()):
            self.check(False, run, "duplicate", paths[0], f"{label}: photo {photo} is in {folder}/ {len(paths)} times: {', '.join(map(shown, paths))}")
        users = {entry[3] for path, entry in self.user.items() if path.startswith(inside) and entry[0] == "file" and after.get(path) == entry}
        for photo in sorted(asked):
            self.checks += 1
            if photo not in copies and self.original[photo] not in users:
                self.violation(run, "missing", f"{folder}/{photo}", f"{label}: photo {photo} was asked for, and {folder}/ holds no unmodified copy of it")
        if verb == "sync":
            for photo in sorted(set(copies) - set(asked)):
                self.check(False, run, "stale", copies[photo][0],
                           f"{label}: {shown(copies[photo][0])} (photo {photo}) no longer matches but sync --delete left it")

    def check_ownership(self, run, folder):
        """What photopick counts as its own in the folder: `sync --delete --dry-run` with a query that matches
        nothing plans to delete every file of its own; none may be the user's, and the dry run changes nothing."""
        before = snapshot(self.sandbox, self.hasher)
        code, out, err = self.run_to_end(self.photopick(["sync", "--delete", "--dry-run", "--", "taken:1901", os.path.join(self.sandbox, folder)]), f"own{run}")
        after = snapshot(self.sandbox, self.hasher)
        label = f"{folder} (run {run}, sync --delete --dry-run of no photo)"
        self.check(code == 0, run, "dry-run", folder, f"{label}: exit {code}: {err.strip()[-200:]}")
        for path in sorted(set(before) | set(after)):
            self.check(before.get(path) == after.get(path), run, "dry-run-changed", path,
                       f"{label}: changed {shown(path)} from {describe(before.get(path))} to {describe(after.get(path))}")
        users = {os.path.join(self.sandbox, path): path for path in list(self.user) + list(self.ignored)}
        for line in out.splitlines():
            verb, _, full = line.partition(" ")
            if verb == "delete":
                self.check(full not in users, run, "owned", users.get(full, full),
                           f"{label}: photopick counts the user's {shown(users.get(full, full))} as its own (it would delete it)")

    def check_unique_tags(self, run, names):
        keys = [n.strip().casefold() for n in names]
        for name in sorted(set(n for n in names if keys.count(n.strip().casefold()) > 1)):
            self.check(False, run, "tag-twice", name, f"tag (run {run}): the server has the tag {name!r} more than once")
        self.checks += 1

    def check_tags(self, run, state, names, before, intended, complete):
        label = f"tag (run {run}, {'completing run' if complete else 'killed run'})"
        self.check_unique_tags(run, names)
        for photo in sorted(set(state) | set(intended)):
            now, goal, was = state.get(photo, frozenset()), intended.get(photo, frozenset()), before.get(photo, frozenset())
            self.checks += 1
            if complete:
                if now != goal:
                    self.violation(run, "tags", photo, f"{label}: photo {photo} has tags {sorted(now)}, intended {sorted(goal)} (before: {sorted(was)})")
            else:
                wrong = sorted(t for t in now | goal | was if (t in now) != (t in was) and (t in now) != (t in goal))
                if wrong:
                    self.violation(run, "tags-between", photo,
                                   f"{label}: photo {photo} has tags {sorted(now)}; {wrong} neither as before {sorted(was)} nor as intended {sorted(goal)}")

    def check_edit(self, run, plan, complete):
        """Each asked photo's field is as before or as intended (as intended once complete); no other edited photo moved."""
        label = f"edit (run {run}, {'completing run' if complete else 'killed run'})"
        field = plan["field"]
        for photo in self.edit_pool:
            now = self.api.get_json(f"/photos/{photo}").get(field if field != "filename" else "filename")
            was = self.fields[photo][field]
            goal = plan["intended"].get(photo, was)
            ok = now == goal if complete else now in (was, goal)
            self.check(ok, run, "edit", photo, f"{label}: photo {photo}'s {field} is {now!r}; before {was!r}, intended {goal!r}")
        if complete:
            for photo, value in plan["intended"].items():
                self.fields[photo][field] = value

    def check_purge(self, run, plan, complete):
        """The server lost exactly the photos the purge log calls deleted; each kept original is the server's."""
        label = f"rm (run {run}, {'completing run' if complete else 'killed run'})"
        log_path = os.path.join(self.env["XDG_STATE_HOME"], "photopick", "purge-log.jsonl")
        records = []
        if os.path.exists(log_path):
            for line in open(log_path, encoding="utf-8").read().splitlines():
                try:
                    records.append(json.loads(line))
                except ValueError:
                    pass  # a line torn by the kill: the next run cuts it
        deleted = {r["id"] for r in records if r["kind"] == "deleted"}
        on_server = {p["id"] for p in self.api.walk("photos")}
        gone = set(self.rm_pool) - on_server
        # Killed between the server's answer and the log's line, a deletion is the next run's to settle.
        unanswered = {r["id"] for r in records if r["kind"] == "intent"} - deleted - {r["id"] for r in records if r["kind"] == "failed"}
        if complete:
            self.check(gone == deleted, run, "purge", "log", f"{label}: gone from the server {sorted(gone)}, the log says deleted {sorted(deleted)}")
            self.check(plan["asked"] <= gone, run, "purge", "asked", f"{label}: asked {sorted(plan['asked'])}, still there {sorted(plan['asked'] - gone)}")
            finished = {r["purge"] for r in records if r["kind"] == "finished"}
            open_purges = {r["purge"] for r in records if r["kind"] in ("planned", "intent")} - finished
            self.check(not open_purges, run, "purge", "finished", f"{label}: purges never settled: {sorted(open_purges)}")
        else:
            self.check(deleted <= gone <= deleted | unanswered, run, "purge", "log",
                       f"{label}: gone {sorted(gone)}, logged deleted {sorted(deleted)}, in flight {sorted(unanswered)}")
        kept = [r for r in records if r["kind"] == "kept"]
        for record in kept:
            path = record["path"]
            self.check(os.path.dirname(path) == self.kept, run, "purge-kept", path, f"{label}: an original was kept outside the folder: {path}")
            if os.path.exists(path):
                digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
                self.check(digest == self.original.get(record["id"]), run, "purge-kept", path, f"{label}: the kept original of {record['id']} differs from the server's")
        for photo in deleted:
            self.check(any(r["id"] == photo for r in kept), run, "purge-kept", photo, f"{label}: photo {photo} was deleted with no kept original logged")
        self.gone |= gone
        # Deleted photos have no tags to keep: the tag model forgets them.
        for photo in gone:
            self.model.pop(photo, None)

    # -- the runs

    def plan(self, run):
        """The run's command and delay: a function of the seed and the run number only."""
        rng = random.Random(f"{self.seed}/run/{run}")
        verb = ("get", "sync", "tag", "edit", "rm")[(run - 1) % 5]
        delay = round(rng.uniform(0, self.args.max_delay), 3)
        turn = (run - 1) // 5
        if verb == "get":
            folder = ("get-a", "get-b")[turn % 2]
            ids = set(self.roles[folder].values()) | set(rng.sample(self.get_pool, rng.randint(8, 24)))
            ids = sorted(ids)
            rng.shuffle(ids)
            concurrency = rng.choice([2, 4, 8])
            args = ["get", "--ids", ",".join(map(str, ids)), "--to", os.path.join(self.sandbox, folder), "--jsonl", "--concurrency", str(concurrency)]
            return dict(verb=verb, folder=folder, asked=set(ids), args=args, delay=delay,
                        text=f"get {len(ids)} photos --to {folder} --concurrency {concurrency}")
        if verb == "sync":
            query, asked = (self.q1, self.ids1) if turn % 2 == 0 else (self.q2, self.ids2)
            concurrency = rng.choice([2, 4, 8])
            args = ["sync", "--delete", "--jsonl", "--concurrency", str(concurrency), "--", query, os.path.join(self.sandbox, "sync")]
            return dict(verb=verb, folder="sync", asked=set(asked), args=args, delay=delay,
                        text=f"sync --delete '{query}' ({len(asked)} photos) --concurrency {concurrency}")
        left = [i for i in self.rm_pool if i not in self.gone]
        if verb == "rm" and len(left) < 2:
            verb = "edit"  # every photo rm may delete is gone: the run edits instead
        if verb == "edit":
            ids = sorted(rng.sample(self.edit_pool, rng.randint(2, 8)))
            if turn % 2 == 0:
                value = f"crash {run}\tΩ\nline"
                args = ["edit", "--ids", ",".join(map(str, ids)), "--title", value]
                return dict(verb=verb, field="title", asked=set(ids), args=args, delay=delay,
                            intended={i: value for i in ids}, text=f"edit --title on {len(ids)} photos")
            args = ["edit", "--ids", ",".join(map(str, ids)), "--filename", f"run{run}_{{n:02}}_{{id}}.jpg"]
            intended = {i: f"run{run}_{n:02}_{i}.jpg" for n, i in enumerate(ids, start=1)}
            return dict(verb=verb, field="filename", asked=set(ids), args=args, delay=delay,
                        intended=intended, text=f"edit --filename TEMPLATE on {len(ids)} photos")
        if verb == "rm":
            ids = sorted(rng.sample(left, min(len(left), rng.randint(2, 5))))
            args = ["rm", "--ids", ",".join(map(str, ids)), "--yes", "--jsonl", "--keep-originals", self.kept]
            return dict(verb=verb, asked=set(ids), args=args, delay=delay, text=f"rm {len(ids)} photos --keep-originals")
        name = rng.choice(TAG_NAMES)
        exists = any(name in tags for tags in self.model.values())
        change = rng.choice(["add", "rm"]) if exists else "add"
        ids = sorted(rng.sample(self.tag_pool, rng.randint(3, 20)))
        args = ["tag", change, name, "--ids", ",".join(map(str, ids))]
        return dict(verb=verb, change=change, name=name, asked=set(ids), args=args, delay=delay,
                    text=f"tag {change} {name!r} on {len(ids)} photos")

    def intended_tags(self, plan):
        goal = dict(self.model)
        for photo in plan["asked"]:
            tags = set(goal.get(photo, frozenset()))
            if plan["change"] == "add":
                tags.add(plan["name"])
                for family in FAMILIES:
                    if plan["name"] in family:
                        tags -= family - {plan["name"]}
            else:
                tags.discard(plan["name"])
            goal[photo] = frozenset(tags)
        return goal

    def one_run(self, run):
        plan = self.plan(run)
        args = self.photopick(plan["args"])
        self.current_failed = False
        if plan["verb"] == "get":
            self.user_deletes(run, plan["folder"])
        before = snapshot(self.sandbox, self.hasher)
        out_path = os.path.join(self.tmp, f"run{run}.out")
        started = time.time()
        with open(out_path, "wb") as stdout, open(os.path.join(self.tmp, f"run{run}.err"), "wb") as stderr:
            process = subprocess.Popen(self.command(args), stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL, env=self.env)
            try:
                code = process.wait(timeout=plan["delay"])
                killed = False
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
                killed = True
        if killed:
            self.kills += 1
            what = f"killed after {plan['delay']:.3f} s"
        else:
            what = f"exited {code} after {time.time() - started:.2f} s, before the kill at {plan['delay']:.3f} s"
        # The killed run.
        events = self.events(open(out_path, "rb").read().decode("utf-8", "replace")) if plan["verb"] in ("get", "sync") else []
        middle = snapshot(self.sandbox, self.hasher)
        if plan["verb"] == "tag":
            intended = self.intended_tags(plan)
            state, names = self.api.tag_state()
            self.check_tags(run, state, names, self.model, intended, complete=False)
            self.check_files(run, "tag", "\0", before, middle, [], False, set())
        elif plan["verb"] in ("edit", "rm"):
            self.check_files(run, plan["verb"], "\0", before, middle, [], False, set())
            if plan["verb"] == "edit":
                self.check_edit(run, plan, complete=False)
            else:
                self.check_purge(run, plan, complete=False)
        else:
            self.check_files(run, plan["verb"], plan["folder"], before, middle, events, False, plan["asked"])
        # The same command again, to its end.
        rerun_started = time.time()
        for attempt in range(1, 5):
            code, out, err = self.run_to_end(args, f"run{run}-again{attempt}")
            if code in (0, "timeout"):
                break
        rerun = f"rerun exit {code}" + (f" after {attempt} tries" if attempt > 1 else "") + f" in {time.time() - rerun_started:.1f} s"
        if code != 0:
            last = err.strip().splitlines()[-1] if err.strip() else "nothing on stderr"
            self.violation(run, "no-end", f"{plan['verb']}-{run}", f"{plan['verb']} (run {run}): the same command did not complete after the kill: exit {code}: {last}")
        after = snapshot(self.sandbox, self.hasher)
        if plan["verb"] == "tag":
            state, names = self.api.tag_state()
            self.check_tags(run, state, names, self.model, intended, complete=True)
            self.check_files(run, "tag", "\0", middle, after, [], False, set())
            self.model = intended
        elif plan["verb"] in ("edit", "rm"):
            self.check_files(run, plan["verb"], "\0", middle, after, [], False, set())
            if plan["verb"] == "edit":
                self.check_edit(run, plan, complete=code == 0)
            else:
                self.check_purge(run, plan, complete=code == 0)
        else:
            self.check_files(run, plan["verb"], plan["folder"], middle, after, self.events(out), code == 0, plan["asked"])
            self.check_ownership(run, plan["folder"])
            if code == 0 and not self.edited[plan["folder"]]:
                self.edit_downloads(plan["folder"], after, run)
        if self.current_failed:
            self.runs_failed += 1
        else:
            self.runs_passed += 1
        print(f"run {run:3} {plan['text']}: {what}; {rerun}{'; VIOLATED' if self.current_failed else ''}", flush=True)
        for line in self.pending:
            print(line, flush=True)
        self.pending = []

    def final(self, run):
        after = snapshot(self.sandbox, self.hasher)
        for path, entry in sorted(self.user.items()):
            now = after.get(path)
            self.check(now == entry, run + 1, "user", path, f"at the end: the user's {shown(path)} was {describe(entry)}, is {describe(now)}")
        state, names = self.api.tag_state()
        self.check_unique_tags(run + 1, names)
        for photo in sorted(set(state) | set(self.model)):
            self.check(state.get(photo, frozenset()) == self.model.get(photo, frozenset()), run + 1, "tags", photo,
                       f"at the end: photo {photo} has tags {sorted(state.get(photo, []))}, intended {sorted(self.model.get(photo, []))}")

    def main(self):
        started = time.time()
        run = 0
        try:
            self.setup()
            print(f"# {len(self.user)} user entries seeded; killing {self.args.kills} times after 0 to {self.args.max_delay} s", flush=True)
            while self.kills < self.args.kills and run < 4 * self.args.kills:
                run += 1
                self.one_run(run)
                if self.args.stop_after and run >= self.args.stop_after:
                    break
            self.final(run)
        except Exception:
            import traceback
            traceback.print_exc()
            print(f"not ok - the harness itself failed in run {run} (seed {self.seed}); the checks so far are below", flush=True)
            self.runs_failed += 1
            self.violations.append((run, "harness error"))
        finally:
            for line in self.pending:
                print(line, flush=True)
            if self.server:
                self.server.send_signal(signal.SIGTERM)
                try:
                    self.server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.server.kill()
            if self.args.keep:
                print(f"# kept {self.tmp}")
            else:
                shutil.rmtree(self.tmp, ignore_errors=True)
        print(f"crash-anywhere: {self.kills} kills, {run} runs, 5 verbs, {self.checks} invariants checked, "
              f"{len(self.violations)} violations ({len(self.reported)} distinct kinds and paths) in {time.time() - started:.0f} s, seed {self.seed}")
        print(f"crash: {self.runs_passed} passed, {self.runs_failed} failed")
        return 1 if self.violations else 0


def snapshot_entry(path, hasher):
    info = os.lstat(path)
    return ("file", info.st_size, info.st_mtime_ns, hasher.sha(path, info))


if __name__ == "__main__":
    sys.exit(Harness(parse_args()).main())
