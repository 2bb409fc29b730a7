#!/usr/bin/env python3
"""Crash-anywhere test of the browser at a career library's size (issue 38). Python 3 standard library,
tmux and sqlite3's Python module.

Serves a library of `--photos` (1,000,000 by default) with `photopick serve`, runs the browser in tmux
against it and kills it with SIGKILL at random moments, in two phases:

1. **Listing and refresh.** The first start lists the whole library; each start after a kill resumes
   the walk from its cursor, and once a walk completed, every start checks the library again (the
   config says `refresh = "on-start"`). After every kill, the catalogue holds no photo the server does
   not, and every photo it holds is as the server has it (name, size, tags): pages are saved whole,
   in order, or not at all. Then photos are deleted and retagged on the server, a start runs the
   check to its end, and the catalogue must equal the server exactly.
2. **Select all and a tag.** `a` then `1` on every photo, killed at a random moment after the keys,
   and again while the restarted browser sends it. After every kill: the outbox holds exactly the
   intended edit and nothing else (one folded row for the million photos, at most a chunk of them
   expanded into per-photo rows), every photo is either tagged on the server or still covered by the
   outbox, and no other tag of any photo changed. A run whose keys the kill beat records nothing,
   and the keys are pressed again.

Each violation is one line with the seed; the exit status is 1 when there was any.

  Tests/e2e/million.py                               # 1,000,000 photos, 6 + 6 kills, the release build
  Tests/e2e/million.py --photos 20000 --kills 3      # smaller and quicker
"""

import argparse
import glob
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KEY = "pp_test_million_key"


def parse_args():
    parser = argparse.ArgumentParser(description="Kill the browser during a million-photo listing, refresh and select-all tag.")
    parser.add_argument("--photos", type=int, default=1_000_000)
    parser.add_argument("--kills", type=int, default=6, help="kills in each phase (default 6)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    return parser.parse_args()


class Million:
    def __init__(self, args):
        self.args = args
        self.seed = args.seed if args.seed is not None else random.randrange(1 << 30)
        self.random = random.Random(self.seed)
        self.tmp = tempfile.mkdtemp(prefix="photopick-million.")
        self.socket = f"photopick-million-{os.getpid()}"
        self.violations = 0
        self.checks = 0
        self.env = {k: v for k, v in os.environ.items() if k not in ("PHOTOPICK_API_KEY", "TMUX")}
        for name in ("data", "state", "config", "cache"):
            self.env[f"XDG_{name.upper()}_HOME"] = os.path.join(self.tmp, "xdg", name)
        self.env["HOME"] = os.path.join(self.tmp, "home")
        self.env["PHOTOPICK_API_KEY"] = KEY
        os.makedirs(self.env["HOME"])
        config = os.path.join(self.env["XDG_CONFIG_HOME"], "photopick")
        os.makedirs(config)
        with open(os.path.join(config, "config.toml"), "w") as file:
            file.write('refresh = "on-start"\n')
        built = os.environ.get("PHOTOPICK") or next(
            (p for p in (f"{ROOT}/.build/release/photopick", f"{ROOT}/.build/debug/photopick") if os.access(p, os.X_OK)), None)
        if not built:
            sys.exit("not ok - no photopick built (swift build -c release --product photopick, or set PHOTOPICK)")
        self.binary = os.path.join(self.tmp, "photopick")
        shutil.copy2(built, self.binary)
        print(f"# {os.path.relpath(built, ROOT)}, seed {self.seed}, {args.photos:,} photos, folder {self.tmp}", flush=True)

    # -- reporting

    def check(self, ok, text):
        self.checks += 1
        if not ok:
            self.violations += 1
            print(f"VIOLATION seed={self.seed}: {text}", flush=True)
        return ok

    # -- the server

    def start_server(self):
        started = time.monotonic()
        self.server_out = open(os.path.join(self.tmp, "server.out"), "w")
        self.data = os.path.join(self.tmp, "server")
        self.server = subprocess.Popen(
            [self.binary, "serve", "--data", self.data, "--port", "0", "--key", KEY, "--rate-limit", "10000000",
             "--photos", str(self.args.photos), "--original-megapixels", "0.3", "--seed", str(self.seed % 1000)],
            stdout=self.server_out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=self.env)
        while time.monotonic() - started < 600:
            text = open(os.path.join(self.tmp, "server.out"), errors="replace").read()
            match = re.search(r"^PhotoPick server at (http://\S+)", text, re.M)
            if match:
                url = match.group(1).rstrip("/")
                self.url = url if url.endswith("/api/v1") else url + "/api/v1"
                print(f"# the server made {self.args.photos:,} photos in {time.monotonic() - started:.1f} s", flush=True)
                return
            if self.server.poll() is not None:
                sys.exit(f"not ok - photopick serve exited:\n{text}")
            time.sleep(0.2)
        sys.exit("not ok - photopick serve printed no URL in 10 minutes")

    def request(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read() or b"null")

    def server_db(self):
        return sqlite3.connect(f"file:{self.data}/library.sqlite?mode=ro", uri=True, timeout=30)

    def server_photos(self):
        """Every photo on the server: id -> (filename, bytes, sorted tag ids)."""
        with self.server_db() as db:
            tags = {}
            for photo, tag in db.execute("SELECT photo_id, tag_id FROM photo_tag"):
                tags.setdefault(photo, []).append(tag)
            return {i: (name, size, tuple(sorted(tags.get(i, ())))) for i, name, size in db.execute("SELECT id, filename, bytes FROM photo")}

    # -- the browser

    def tmux(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.socket, *args], env=self.env, capture_output=True, text=True, check=check)

    def start_browser(self):
        """Starts the browser in a new tmux server; the seconds until its first frame with photos in the
        list (a row's capture date), None if none came in 60 s."""
        self.tmux("kill-server", check=False)
        # The key reaches photopick through tmux's environment, never through an argv.
        command = f"exec {self.binary} --api-url {self.url} --graphics symbols"
        for _ in range(50):
            if self.tmux("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", command, check=False).returncode == 0:
                break
            time.sleep(0.1)  # the last server still going away
        started = time.monotonic()
        while time.monotonic() - started < 60:
            screen = self.screen()
            if "photopick" in screen and re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", screen):
                return time.monotonic() - started
            time.sleep(0.01)
        self.check(False, f"no first frame with photos in 60 s: {self.screen()[:300]!r}")
        return None

    def screen(self):
        return self.tmux("capture-pane", "-p", check=False).stdout

    def keys(self, *keys):
        self.tmux("send-keys", *keys)

    def kill_browser(self):
        found = subprocess.run(["pgrep", "-f", f"^{self.binary} --api-url"], capture_output=True, text=True).stdout.split()
        for pid in found:
            os.kill(int(pid), signal.SIGKILL)
        self.tmux("kill-server", check=False)
        time.sleep(0.2)
        return bool(found)

    def catalogue_path(self):
        found = glob.glob(os.path.join(self.env["XDG_STATE_HOME"], "photopick", "catalogue-*.sqlite"))
        return found[0] if found else None

    def catalogue(self):
        """The catalogue's photos (id -> name, size, tags) and its walk: (completed_at, in_progress, cursor)."""
        path = self.catalogue_path()
        if not path:
            return {}, None
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as db:
            photos = {i: (name, size, tuple(sorted(int(t) for t in re.findall(r"-?\d+", tags or ""))))
                      for i, name, size, tags in db.execute("SELECT id, filename, bytes, tag_ids FROM photo")}
            walk = db.execute("SELECT completed_at, in_progress, cursor FROM walk").fetchone()
        return photos, walk

    def walk(self):
        """The catalogue's walk alone: (completed_at, in_progress, cursor)."""
        path = self.catalogue_path()
        if not path:
            return None
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as db:
            return db.execute("SELECT completed_at, in_progress, cursor FROM walk").fetchone()

    def outbox(self):
        path = os.path.join(self.env["XDG_STATE_HOME"], "photopick", "state.sqlite")
        if not os.path.exists(path):
            return [], []
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as db:
            bulks = db.execute("SELECT sequence, tag_id, change, photo_ids, total, expanded FROM tag_bulk").fetchall()
            deltas = db.execute("SELECT photo_id, tag_id, change FROM tag_delta").fetchall()
        return bulks, deltas

    # -- phase 1

    def check_catalogue(self, label, exact=False):
        server = self.server_photos()
        photos, walk = self.catalogue()
        extra = [i for i in photos if i not in server]
        differ = [i for i, row in photos.items() if i in server and server[i] != row]
        self.check(not extra, f"{label}: {len(extra)} photos in the catalogue the server does not have, first {extra[:5]}")
        self.check(not differ, f"{label}: {len(differ)} photos in the catalogue differ from the server's, first "
                               f"{[(i, photos[i], server[i]) for i in differ[:3]]}")
        if exact:
            missing = [i for i in server if i not in photos]
            self.check(not missing, f"{label}: {len(missing)} of the server's photos missing from the catalogue, first {missing[:5]}")
        return len(photos), walk

    def wait_walk(self, since, limit):
        """Waits until the catalogue's walk completed after `since` (a completed_at), or `limit` seconds."""
        started = time.monotonic()
        while time.monotonic() - started < limit:
            walk = self.walk()
            if walk and walk[0] is not None and walk[1] == 0 and (since is None or walk[0] > since):
                return time.monotonic() - started
            time.sleep(0.5)
        return None

    def phase_listing(self):
        completed = 0
        for run in range(1, self.args.kills + 1):
            first = self.start_browser()
            delay = self.random.uniform(0.3, 12.0)
            time.sleep(delay)
            killed = self.kill_browser()
            count, walk = self.check_catalogue(f"listing run {run}")
            state = "complete" if walk and walk[0] is not None and walk[1] == 0 else "under way"
            completed += state == "complete"
            print(f"ok - listing run {run}: first frame {first or 0:.2f} s, killed={killed} after {delay:.1f} s, "
                  f"{count:,} photos catalogued, last walk {state}", flush=True)
        # A start that walks to the end; then changes on the server, and a start whose check must find
        # them all: the catalogue must then equal the server.
        first = self.start_browser()
        seconds = self.wait_walk(None, 3600)
        self.check(seconds is not None, "the listing did not complete in an hour")
        self.kill_browser()
        count, walk = self.check_catalogue("after the listing completed", exact=True)
        print(f"ok - a start (first frame {first or 0:.2f} s) completed the listing {seconds or 0:.0f} s later: {count:,} photos", flush=True)
        ids = sorted(self.server_photos())
        gone = self.random.sample(ids, 3)
        for photo in gone:
            self.request("DELETE", f"/photos/{photo}")
        tags = [t["id"] for t in self.request("GET", "/tags")["data"]]
        retagged = self.random.sample([i for i in ids if i not in gone], 3)
        for photo in retagged:
            self.request("PUT", f"/photos/{photo}/tags", {"tagIds": [tags[-1]]})
        first = self.start_browser()
        seconds = self.wait_walk(walk[0], 3600)
        self.check(seconds is not None, "the check after the server's changes did not complete in an hour")
        self.kill_browser()
        count, _ = self.check_catalogue("after a complete check", exact=True)
        photos, _ = self.catalogue()
        self.check(all(i not in photos for i in gone), f"deleted photos {gone} still catalogued")
        print(f"ok - deleted {gone} and retagged {retagged} on the server; a start (first frame {first or 0:.2f} s) "
              f"checked the library in {seconds or 0:.0f} s and the catalogue equals the server: {count:,} photos", flush=True)

    # -- a user's session

    def timed(self, keys, until, limit=10.0):
        """Sends `keys` and polls the pane until it changed and `until(screen)` holds: the seconds to
        the first change and to that screen, None for a screen that did not come."""
        before = self.screen()
        start = time.monotonic()
        self.keys(*keys)
        changed = None
        while time.monotonic() - start < limit:
            screen = self.screen()
            now = time.monotonic() - start
            if changed is None and screen != before:
                changed = now
            if changed is not None and until(screen):
                return changed, now, screen
        return changed, None, self.screen()

    def phase_trial(self):
        """Start, G, g g, a filter of six characters, select all, a tag, sort by size, quit, start again;
        each step timed by polling tmux's pane (its own cost measured and given beside)."""
        first = self.start_browser()
        time.sleep(2)
        polls = time.monotonic()
        for _ in range(50):
            self.screen()
        poll = (time.monotonic() - polls) / 50
        steps = [("G", ["G"], lambda s: True), ("g", ["g"], lambda s: True), ("g (again, at the top)", ["g"], None)]
        steps += [("/", ["/"], lambda s: True)]
        for count, char in enumerate("R00036", 1):
            typed = "R00036"[:count]
            steps.append((f"filter {typed}", [char], lambda s, typed=typed: f"/{typed}" in s and "filtering" not in s))
        steps += [("Enter (keep the filter)", ["Enter"], lambda s: True), ("a (select all matching)", ["a"], lambda s: "✓" in s),
                  ("1 (tag)", ["1"], lambda s: True), ("s (sort by name)", ["s"], lambda s: True),
                  ("s (sort by size)", ["s"], lambda s: True)]
        for label, keys, until in steps:
            if until is None:
                self.keys(*keys)
                print(f"ok - trial: {label}: nothing to change on screen", flush=True)
                continue
            changed, done, screen = self.timed(keys, until)
            self.check(done is not None, f"trial: {label}: the screen did not show it in 10 s: {screen[:200]!r}")
            print(f"ok - trial: {label}: first change {1000 * (changed or 0):.0f} ms, settled {1000 * (done or 0):.0f} ms", flush=True)
        # With tags still being sent, q asks first (y quits, and the rest is sent at the next start).
        changed, done, screen = self.timed(["q"], lambda s: "Quit?" in s, limit=2)
        asked = done is not None
        quit_start = time.monotonic()
        if asked:
            self.keys("y")
        while time.monotonic() - quit_start < 10 and subprocess.run(
                ["pgrep", "-f", f"^{self.binary} --api-url"], capture_output=True).returncode == 0:
            time.sleep(0.01)
        quit_time = time.monotonic() - quit_start
        self.check(quit_time < 10, "trial: photopick did not quit in 10 s")
        print(f"ok - trial: q {'asked first (tags still being sent) in ' + format(1000 * done, '.0f') + ' ms, and y' if asked else ''} "
              f"quit in {1000 * quit_time:.0f} ms", flush=True)
        again = self.start_browser()
        print(f"ok - trial: first frame {1000 * (first or 0):.0f} ms, and {1000 * (again or 0):.0f} ms when started again "
              f"(tmux's pane read every {1000 * poll:.1f} ms)", flush=True)
        started = time.monotonic()
        while time.monotonic() - started < 300 and any(self.outbox()):
            time.sleep(0.5)
        self.check(not any(self.outbox()), "trial: the tag on the filtered photos was not sent in 5 minutes")
        self.kill_browser()

    # -- phase 2

    def check_outbox(self, label, before, tag):
        """Every photo tagged on the server or covered by the outbox; nothing else in it; no other tag changed."""
        bulks, deltas = self.outbox()
        server = self.server_photos()
        self.check(len(bulks) <= 1, f"{label}: {len(bulks)} folded rows, expected at most one")
        self.check(len(deltas) <= 1024, f"{label}: {len(deltas):,} per-photo rows, expected at most a chunk")
        others = [d for d in deltas if d[1] != tag or d[2] != "add"] + [b[:3] for b in bulks if b[1] != tag or b[2] != "add"]
        self.check(not others, f"{label}: edits in the outbox that were not asked for: {others[:5]}")
        changed = [i for i, row in server.items() if tuple(t for t in row[2] if t != tag) != tuple(t for t in before[i][2] if t != tag)]
        self.check(not changed, f"{label}: {len(changed)} photos had another tag changed, first {changed[:5]}")
        covered = {i for i, row in server.items() if tag in row[2]} | {d[0] for d in deltas}
        for _, _, _, blob, total, expanded in bulks:
            ids = decode(blob)
            self.check(len(ids) == total, f"{label}: the folded row holds {len(ids)} photos, says {total}")
            covered |= set(ids[expanded:])
        recorded = bool(bulks or deltas) or any(tag in row[2] and tag not in before[i][2] for i, row in server.items())
        if recorded:
            lost = [i for i in server if i not in covered]
            self.check(not lost, f"{label}: {len(lost):,} photos neither tagged nor in the outbox, first {lost[:5]}")
        tagged = sum(tag in row[2] for row in server.values())
        return recorded, tagged, (bulks[0][5] if bulks else None)

    def phase_tag(self):
        before = self.server_photos()
        recorded = False
        tag = None
        for run in range(1, self.args.kills + 1):
            first = self.start_browser()
            time.sleep(1.0)
            pressed = ""
            if not recorded:
                self.keys("a")
                time.sleep(0.3)
                self.keys("1")
                pressed = "a 1, "
            delay = self.random.uniform(0.0, 4.0)
            time.sleep(delay)
            self.kill_browser()
            if tag is None:
                bulks, deltas = self.outbox()
                tag = bulks[0][1] if bulks else (deltas[0][1] if deltas else None)
            if tag is None:
                print(f"ok - tag run {run}: {pressed}killed after {delay:.1f} s, before anything was recorded", flush=True)
                continue
            recorded, tagged, expanded = self.check_outbox(f"tag run {run}", before, tag)
            print(f"ok - tag run {run}: first frame {first or 0:.2f} s, {pressed}killed after {delay:.1f} s; tag {tag} on "
                  f"{tagged:,} photos on the server, the folded row expanded to {expanded}", flush=True)
        self.check(tag is not None, "select all and a tag recorded nothing in any run")

    def run(self):
        try:
            self.start_server()
            self.phase_listing()
            self.phase_trial()
            self.phase_tag()
        finally:
            self.kill_browser()
            self.server.terminate()
            self.server.wait()
            if not self.args.keep:
                shutil.rmtree(self.tmp, ignore_errors=True)
        print(f"# {self.checks} checks, {self.violations} violations, seed {self.seed}")
        return 1 if self.violations else 0


def decode(blob):
    """A folded row's photo ids: each the difference from the one before, seven bits a byte."""
    ids, value, shift, previous = [], 0, 0, 0
    for byte in blob:
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
            continue
        previous += value
        ids.append(previous)
        value, shift = 0, 0
    return ids


if __name__ == "__main__":
    sys.exit(Million(parse_args()).run())
