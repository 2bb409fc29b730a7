#!/usr/bin/env python3
"""The browser over a slow link: a pty whose "terminal" answers the start-up probe 1.5 s late, as kitty
over SSH with a 1.5 s round trip did when its answer became the keys `i` and `1` (all photos selected,
291 tag writes). Checks that the late answers act as nothing (no selection, no write in the server's
log), that the status line says once that kitty images are available, and that `q` then quits.

    Tests/e2e/slowlink.py            # uses .build/debug/photopick
    PHOTOPICK=/path/to/photopick Tests/e2e/slowlink.py
"""
import fcntl, os, pty, re, select, shutil, signal, struct, subprocess, sys, tempfile, termios, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PHOTOPICK = os.path.abspath(os.environ.get("PHOTOPICK", os.path.join(ROOT, ".build/debug/photopick")))
KEY = "pp_test_slowlink"
DELAY = 1.5
# What kitty 0.26.5 answers to the probe's queries, in order.
ANSWERS = b"\x1bP>|kitty(0.26.5)\x1b\\" + b"\x1b_Gi=31;OK\x1b\\" + b"\x1b[?1;3;0S\x1b[?2;3;0S" + b"\x1b[6;20;10t" + b"\x1b[?62;c"


def fail(message):
    print(f"not ok - slowlink: {message}")
    sys.exit(1)


def main():
    temp = tempfile.mkdtemp(prefix="photopick-slowlink.")
    server = None
    try:
        out = open(os.path.join(temp, "server.out"), "w+")
        server = subprocess.Popen([PHOTOPICK, "serve", "--data", os.path.join(temp, "data"), "--port", "0", "--key", KEY,
                                   "--photos", "300", "--original-megapixels", "0.3"], stdout=out, stderr=subprocess.STDOUT)
        api = None
        for _ in range(300):
            out.seek(0)
            match = re.search(r"PhotoPick server at (http://\S+)", out.read())
            if match:
                api = match.group(1).rstrip("/")
                break
            time.sleep(0.1)
        if not api:
            fail("photopick serve printed no URL")
        if not api.endswith("/api/v1"):
            api += "/api/v1"
        env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "TMUX_PANE", "PHOTOPICK_API_KEY", "COLORTERM")}
        env.update(TERM="xterm-256color", PHOTOPICK_API_KEY=KEY, XDG_STATE_HOME=f"{temp}/state", XDG_DATA_HOME=f"{temp}/data-home",
                   XDG_CONFIG_HOME=f"{temp}/config", XDG_CACHE_HOME=f"{temp}/cache", LANG="C.UTF-8")
        pid, master = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 800, 960))
            os.execve(PHOTOPICK, [PHOTOPICK, "--api-url", api, "--download-dir", f"{temp}/downloads", "--graphics", "auto"], env)
        screen = bytearray()
        answered_at = None
        asked = False
        start = time.monotonic()
        def pump(seconds):
            nonlocal answered_at, asked
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                if asked and answered_at is None and time.monotonic() - asked_at >= DELAY:
                    os.write(master, ANSWERS)
                    answered_at = time.monotonic()
                ready, _, _ = select.select([master], [], [], 0.05)
                if ready:
                    try:
                        data = os.read(master, 65536)
                    except OSError:
                        return False
                    if not data:
                        return False
                    screen.extend(data)
                    if not asked and b"a=q" in screen:
                        asked = True
                        asked_at = time.monotonic()
            return True
        asked_at = 0.0
        pump(12)
        if not asked:
            fail("the browser sent no probe")
        if answered_at is None:
            fail("the answers were never written")
        text = screen.decode("utf-8", "replace")
        # ncurses sends only the cells that changed: a header that read "200 photos" a page earlier becomes
        # "300 photos" by one digit. Ctrl-L draws the whole screen again, so what it shows is in the stream whole.
        before = len(screen)
        os.write(master, b"\x0c")
        pump(3)
        redrawn = screen[before:].decode("utf-8", "replace")
        if "300 photos" not in redrawn:
            fail("the list of 300 photos was not on the screen after Ctrl-L")
        if "selected" in text:
            fail("the late answers selected photos")
        if "answered late" not in text:
            fail("the status line did not say kitty images are available")
        os.write(master, b"q")
        pump(5)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            fail(f"photopick exited with {code}")
        out.seek(0)
        writes = [line for line in out.read().splitlines() if re.match(r"(PUT|POST|PATCH|DELETE) ", line)]
        if writes:
            fail(f"the server received {len(writes)} writes: {writes[:3]}")
        print(f"ok - slowlink: the probe's answers {DELAY} s late acted as nothing (0 writes, no selection), the advice was shown once, q quit; {time.monotonic() - start:.1f} s")
    finally:
        if server:
            server.send_signal(signal.SIGTERM)
            server.wait()
        shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    main()
