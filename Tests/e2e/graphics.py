#!/usr/bin/python3
"""Previews in real terminals: photopick on the demo library in xterm (-ti vt340, sixel), kitty (its
graphics protocol) and mlterm (iTerm2 images) under Xvfb, and in tmux inside xterm (symbols).

For each terminal it takes screenshots and checks what a person would see:
  - the photo's pixels are where the debug log says they were placed (RMSE against the demo's `web`
    rendition scaled to the logged size, found within a few pixels of the logged cells);
  - `j`: the next photo is there and nothing of the old one is left anywhere;
  - `?`: no image pixel shows over the help; Esc brings the photo back;
  - Ctrl-Z: the shell, and no image left on it; `fg`: the photo is back;
  - a resize: the photo is placed again for the new size and nothing stale remains;
  - Tab: the grid's thumbnails are real pixels, each where the log says;
  - p: the photo full screen, and nothing of the grid's thumbnails;
in kitty, compare of a burst (C): every frame shown in real pixels where the log says, and none
left after Esc; and, in a library of its own, culling marks in their colours (the pick flag,
stars, a red label).
"Nothing stale" is measured two ways. Mainly by reference: the cells where a photo was must no
longer show that photo's pixels (unless a photo placed now covers them). And as a net for images
anywhere: vivid pixels (more saturated than the interface's greys and blue header; the demo's
landscapes have fewer than its old shapes, so this net alone would catch little) outside the
rectangles the log says hold images now.

Needs Debian's xvfb, xterm, kitty, mlterm, tmux, imagemagick (import), xdotool, python3-pil and
python3-numpy; `.ci/run` installs them. Run after `swift build`: Tests/e2e/graphics.py [terminal...]
"""
from collections import Counter
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Tests/e2e/debian13.sh runs this script with the terminals (and tmux) of a Debian 13 root: each is
# started there under chroot, on this machine's X display; screenshots and keys stay on this side.
TERMINALS_ROOT = os.environ.get("PHOTOPICK_E2E_ROOT")
IN_ROOT = ["chroot", TERMINALS_ROOT] if TERMINALS_ROOT else []
BINARY = os.path.join(ROOT, ".build", "debug", "photopick")
COLUMNS, ROWS = 120, 36
THRESHOLD = 0.12
PLACED = re.compile(r"image placed: photo (\d+), (\w+), cells (\d+)×(\d+) at (\d+),(\d+), pixels (\d+)×(\d+)")
CHOSEN = re.compile(r"graphics: (\w+) \((.*)\), colours (\S+), cell (?:(\d+)×(\d+)|unknown)")

checks = 0
# The demo's DNG originals are TIFF files whose first image (the full-size preview) Pillow reads whole
# before the raw data it does not need; it says so on every read.
warnings.filterwarnings("ignore", "Truncated File Read")


def ok(message):
    global checks
    checks += 1
    print(f"ok {checks} - {message}", flush=True)


class Failure(Exception):
    pass


def run(*command, **options):
    return subprocess.run(command, check=True, capture_output=True, text=True, **options).stdout


class Display:
    """An Xvfb server of its own, on a free display number."""

    def __enter__(self):
        read, write = os.pipe()
        self.server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
                                       pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        os.close(read)
        self.name = f":{number.decode().strip()}"
        # The number comes before the server takes connections: wait until it answers.
        for _ in range(100):
            if subprocess.run(["xdpyinfo", "-display", self.name], capture_output=True).returncode == 0:
                return self
            time.sleep(0.1)
        raise Failure(f"Xvfb on {self.name} did not start")

    def __exit__(self, *_):
        self.server.terminate()
        self.server.wait()


class Session:
    """photopick in a terminal emulator, with its own XDG folders and a debug log."""

    def __init__(self, display, terminal, folder, tmux=False, wrapper=(), tmux_options=()):
        self.display, self.terminal, self.folder = display, terminal, folder
        self.environment = dict(os.environ, DISPLAY=display.name, XDG_CONFIG_HOME=f"{folder}/config",
                                XDG_STATE_HOME=f"{folder}/state", XDG_CACHE_HOME=f"{folder}/cache",
                                XDG_DATA_HOME=os.environ.get("PHOTOPICK_E2E_DATA", f"{folder}/data"))
        for name in ["TMUX", "TMUX_PANE", "COLORTERM", "TERM_PROGRAM", "KITTY_WINDOW_ID", "MLTERM"]:
            self.environment.pop(name, None)
        self.log = f"{folder}/state/photopick/photopick.log"
        command = [*wrapper, BINARY, "--log-level", "debug"]
        typed = None
        if tmux:
            self.socket = f"pp-e2e-{os.getpid()}"
            configuration = f"{folder}/tmux.conf"
            with open(configuration, "w") as file:
                # As a user's tmux.conf says it: the terminal outside shows 256 and 24-bit colour.
                file.write("set -g status off\nset -as terminal-features 'xterm*:RGB:256'\n" + "".join(f"{line}\n" for line in tmux_options))
            script = f"{folder}/tmux.sh"
            with open(script, "w") as file:
                # Started attached, as a person starts tmux: a session made detached (-d) has panes
                # whose cells tmux takes as 16×32 pixels until a client of another size attaches.
                file.write("#!/bin/sh\n"
                           f"exec tmux -L {self.socket} -f {configuration} new-session -s e2e {' '.join(command)} "
                           f"\\; new-window -d -t e2e:2 'exec sleep 3600'\n")
            os.chmod(script, 0o755)
            command = [script]
        else:
            # An interactive shell with job control, so Ctrl-Z stops photopick and `fg` continues it,
            # as for a person; the command is typed into it once the window is up.
            typed, command = " ".join(command), ["bash", "--norc", "--noprofile", "-i"]
            self.environment["PS1"] = "$ "
        self.tmux = tmux
        font = ["-fa", "DejaVu Sans Mono", "-fs", "10", "-bg", "black", "-fg", "white"]
        launch = {
            "xterm": ["xterm", "-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256",
                      "-geometry", f"{COLUMNS}x{ROWS}+0+0", *font, "-e", *command],
            "kitty": ["kitty", "--config", "NONE", "-o", "font_family=DejaVu Sans Mono", "-o", "font_size=10",
                      "-o", "remember_window_size=no", "-o", f"initial_window_width={COLUMNS}c",
                      "-o", f"initial_window_height={ROWS}c", *command],
            "mlterm": ["mlterm", "--sb=false", "-g", f"{COLUMNS}x{ROWS}+0+0", "-e", *command],
        }[terminal]
        launch = [*IN_ROOT, *launch]
        for _ in range(3):
            self.output = open(f"{folder}/terminal.log", "w")
            self.process = subprocess.Popen(launch, env=self.environment, stdout=self.output, stderr=subprocess.STDOUT, cwd=folder)
            # Seen once in CI: xterm could not open the display just after another client closed. A
            # terminal that fails that way is started again; any other early exit is reported as it was.
            try:
                self.process.wait(1.5)
            except subprocess.TimeoutExpired:
                break
            self.output.close()
            with open(f"{folder}/terminal.log", errors="replace") as log:
                if "open display" not in log.read():
                    break
            time.sleep(1)
        self.read = 0
        if typed:
            self.window()
            time.sleep(0.5)
            self.type(typed)

    def type(self, text):
        run("xdotool", "mousemove", "20", "20", env=self.environment)
        run("xdotool", "type", "--delay", "5", text + "\n", env=self.environment)

    def tmux_command(self, *arguments):
        """A tmux command to the session's server (the root's tmux, when the terminals are the root's)."""
        return run(*IN_ROOT, "tmux", "-L", self.socket, *arguments, env=self.environment)

    def close(self):
        if self.tmux:
            subprocess.run([*IN_ROOT, "tmux", "-L", self.socket, "kill-server"], env=self.environment, capture_output=True)
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        # `script` outlives the terminal it ran in and keeps photopick's pty open, so photopick never
        # sees a hangup: end both, photopick first, or each session leaves the two running.
        scripts = subprocess.run(["pgrep", "-f", f"{self.folder}/terminal-bytes"], capture_output=True, text=True).stdout.split()
        for script in scripts:
            children = subprocess.run(["pgrep", "-P", script], capture_output=True, text=True).stdout.split()
            for pid in children + [script]:
                try:
                    os.kill(int(pid), signal.SIGTERM)
                except ProcessLookupError:
                    pass

    def lines(self):
        try:
            with open(self.log, encoding="utf-8", errors="replace") as file:
                return file.read().splitlines()
        except FileNotFoundError:
            return []

    def wait_for(self, pattern, seconds=60, after=None):
        """The first log line from `after` on (default: lines not yet read) that matches, and its number."""
        start = self.read if after is None else after
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            lines = self.lines()
            for number in range(start, len(lines)):
                match = pattern.search(lines[number])
                if match:
                    self.read = number + 1
                    return match
            if self.process.poll() is not None:
                raise Failure(f"{self.terminal} exited: {self.process.returncode}")
            time.sleep(0.1)
        raise Failure(f"no log line matching {pattern.pattern!r} within {seconds} s; last lines: {self.lines()[-3:]}")

    def placements_settled(self, quiet=1.0, seconds=30):
        """The images placed since the last read, once the log has been quiet for `quiet` seconds."""
        deadline = time.monotonic() + seconds
        count, since = len(self.lines()), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.2)
            now = len(self.lines())
            if now != count:
                count, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                break
        # The log says an image is placed when its last byte is written; a terminal slowed by a busy
        # machine may still be drawing it (xterm decodes sixel strip by strip), so the screen must hold still too.
        self.screen_steady(deadline)
        lines = self.lines()
        found = [PLACED.search(line) for line in lines[self.read:]]
        self.read = len(lines)
        return [match for match in found if match]

    def screen_steady(self, deadline, pixels=400):
        """Waits until two screenshots 0.4 s apart differ in fewer than `pixels` pixels (a blinking
        cursor's cell), or until `deadline`."""
        path = f"{self.folder}/.steady.png"
        def grab():
            run("import", "-window", "root", path, env=self.environment)
            return np.asarray(Image.open(path).convert("RGB")).astype(np.int16)
        before = grab()
        while time.monotonic() < deadline:
            time.sleep(0.4)
            after = grab()
            if int((np.abs(after - before).max(axis=2) > 24).sum()) < pixels:
                break
            before = after
        os.remove(path)

    def keys(self, *keys):
        run("xdotool", "mousemove", "20", "20", env=self.environment)
        run("xdotool", "key", "--delay", "80", *keys, env=self.environment)

    def shot(self, name):
        path = f"{self.folder}/{name}.png"
        run("import", "-window", "root", path, env=self.environment)
        return np.asarray(Image.open(path).convert("RGB")).astype(np.float32) / 255

    def window(self, seconds=30):
        """The terminal's X window, once it is mapped."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(self.process.pid)],
                                   env=self.environment, capture_output=True, text=True).stdout.split()
            if found:
                return found[0]
            if self.process.poll() is not None:
                raise Failure(f"{self.terminal} exited with {self.process.returncode} before its window showed")
            time.sleep(0.1)
        raise Failure(f"{self.terminal}'s window did not show within {seconds} s")


def reference(data, photo, width, height):
    image = Image.open(f"{data}/photopick/demo/images/{photo}-web.jpg").convert("RGB").resize((width, height), Image.LANCZOS)
    return np.asarray(image).astype(np.float32) / 255


def find(screen, ref, x, y, radius=24):
    """Where `ref` best matches the screenshot within `radius` pixels of (x, y), and its RMSE there."""
    height, width = ref.shape[:2]
    small = ref[::4, ::4]
    best = (9.0, x, y)
    for dy in range(-radius, radius + 1, 2):
        for dx in range(-radius, radius + 1, 2):
            top, left = y + dy, x + dx
            if top < 0 or left < 0 or top + height > screen.shape[0] or left + width > screen.shape[1]:
                continue
            error = np.mean((screen[top:top + height:4, left:left + width:4] - small) ** 2)
            best = min(best, (error, left, top))
    _, left, top = best
    exact = (9.0, left, top)
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            t, l = top + dy, left + dx
            if t < 0 or l < 0 or t + height > screen.shape[0] or l + width > screen.shape[1]:
                continue
            error = np.mean((screen[t:t + height, l:l + width] - ref) ** 2)
            exact = min(exact, (error, l, t))
    return float(np.sqrt(exact[0])), exact[1], exact[2]


def palette_rgb(index):
    levels = [0, 95, 135, 175, 215, 255]
    cube = index - 16
    return (levels[cube // 36], levels[cube // 6 % 6], levels[cube % 6])


# The themes' text colours (Theme.swift) that are saturated: the light theme's blues, greens and reds
# on white, the dark theme's header blue, and the histogram's red, green and blue rows (75 the dark
# theme's blue).
BACKGROUNDS = [np.array(c, dtype=np.float32) / 255 for c in ((0, 0, 0), (255, 255, 255), (238, 238, 238), (38, 38, 38), (175, 215, 255))]
INTERFACE = np.array([palette_rgb(i) for i in (22, 24, 25, 28, 75, 78, 94, 110, 114, 117, 124, 150, 153, 160, 203, 221)], dtype=np.float32) / 255


def vivid(screen):
    """Pixels more saturated than the interface draws (its greys and the dark theme's blues stay under
    0.55), less the themes' own saturated text colours; about a third of a demo photo's pixels are above."""
    saturated = (screen.max(axis=2) - screen.min(axis=2)) > 0.55
    if not saturated.any():
        return saturated
    ys, xs = np.nonzero(saturated)
    pixels = screen[ys, xs]
    # A glyph's edge blends its colour with the background: near the line from either to the other.
    near = np.zeros(len(pixels), dtype=bool)
    for background in BACKGROUNDS:
        span = INTERFACE - background                                   # colours × 3
        offset = pixels[:, None, :] - background                         # pixels × colours × 3
        t = np.clip((offset * span).sum(axis=2) / ((span * span).sum(axis=1) + 1e-9), 0, 1)
        distance = np.abs(offset - t[:, :, None] * span[None, :, :]).max(axis=2)
        near |= (distance < 0.06).any(axis=1)
    saturated[ys[near], xs[near]] = False
    return saturated


def chromatic(screen):
    """Pixels with any clear colour at all: the landscapes' skies, fields and trees, the interface's blue."""
    return (screen.max(axis=2) - screen.min(axis=2)) > 0.2


def colourful(screen, cell, allowed, rows=(1, ROWS - 1), columns=(0, COLUMNS)):
    """The share of colourful pixels in the cells of `rows` × `columns` outside the `allowed` rectangles."""
    cw, ch = cell
    saturated = vivid(screen)
    mask = np.zeros(saturated.shape, dtype=bool)
    mask[rows[0] * ch:rows[1] * ch, columns[0] * cw:columns[1] * cw] = True
    for (x, y, w, h) in allowed:
        mask[max(0, y * ch - 4):(y + h) * ch + 4, max(0, x * cw - 4):(x + w) * cw + 4] = False
    return float(saturated[mask].mean()) if mask.any() else 0.0


def remains(screen, ref, x, y, cell, keep=None, covered=(), body=(0, 1 << 30), structure=False):
    """The share of the photo `ref`'s cells, as placed at pixel (x, y), that the screenshot still shows:
    cells with detail in the photo (not a flat or dark patch that black would match) whose pixels match
    it. Only cells inside the pixel rectangle `keep` (when given), outside every `covered` one, and
    between the pixel rows of `body`. With `structure`, a cell counts only if the screen's pixels also
    correlate with the photo's (above 0.5): a grey bar or a box with text on it can be within the
    threshold of a dusk sky's cell, and is not that photo."""
    height, width = ref.shape[:2]
    cw, ch = cell
    counted = matched = 0
    for top in range(0, height - ch + 1, ch):
        for left in range(0, width - cw + 1, cw):
            sx, sy = x + left, y + top
            if sx < 0 or sy < max(0, body[0]) or sy + ch > min(screen.shape[0], body[1]) or sx + cw > screen.shape[1]:
                continue
            if keep and not (keep[0] <= sx and sx + cw <= keep[0] + keep[2] and keep[1] <= sy and sy + ch <= keep[1] + keep[3]):
                continue
            if any(cx - cw < sx < cx + cw_ and cy - ch < sy < cy + ch_ for (cx, cy, cw_, ch_) in covered):
                continue
            part = ref[top:top + ch, left:left + cw]
            # A dark or flat cell of the photo would match the black background by chance.
            if part.std() < 0.03 or np.sqrt(np.mean(part ** 2)) < 2 * THRESHOLD:
                continue
            counted += 1
            there = screen[sy:sy + ch, sx:sx + cw]
            error = np.sqrt(np.mean((there - part) ** 2))
            if structure:
                a, b = (there - there.mean()).ravel(), (part - part.mean()).ravel()
                error = error if float(a @ b) > 0.5 * float(np.sqrt((a @ a) * (b @ b))) else 1.0
            matched += error < THRESHOLD
    # Fewer than ten cells left to look at (the rest covered) is nothing left to see.
    return matched / counted if counted >= 10 else 0.0


def found_there(screen, photo, cell, label):
    """The share of a placed photo's (reference, x, y) cells the screenshot shows; a failure under 90%,
    as a check for what is left of it later would then prove nothing."""
    share = remains(screen, *photo, cell)
    if share < 0.9:
        raise Failure(f"{label}: only {share:.0%} of its cells match it where it was found")
    return share


def rect(match):
    return int(match[5]), int(match[6]), int(match[3]), int(match[4])


def check_placed(session, screen, data, cell, match, origin, label):
    photo, width, height = int(match[1]), int(match[7]), int(match[8])
    x, y, columns, rows = rect(match)
    ref = reference(data, photo, width, height)
    # The image is centred in its cells by the terminal (iTerm2) or starts at their corner (kitty, sixel).
    expected_x = origin[0] + x * cell[0] + (columns * cell[0] - width) // 2 * (match[2] == "iterm")
    expected_y = origin[1] + y * cell[1] + (rows * cell[1] - height) // 2 * (match[2] == "iterm")
    rmse, fx, fy = find(screen, ref, expected_x, expected_y)
    if rmse > THRESHOLD:
        raise Failure(f"{label}: photo {photo} ({width}×{height}) not found near {expected_x},{expected_y}: best RMSE {rmse:.3f} at {fx},{fy}")
    return rmse, fx, fy


def placed(photo):
    """The log line of photo `photo` placed."""
    return re.compile(PLACED.pattern.replace(r"(\d+)", f"({photo})", 1))


def shown(session, photo, shot, data, cell, origin, label, seconds=20):
    """Waits for `photo` to be placed and the screen to settle, then finds it in a screenshot."""
    match = session.wait_for(placed(photo), seconds)
    session.placements_settled()
    screen = session.shot(shot)
    rmse, x, y = check_placed(session, screen, data, cell, match, origin, label)
    return match, screen, rmse, x, y


def terminal_origin(terminal):
    # xterm draws inside a 2-pixel inner border; kitty and mlterm from the window's corner.
    return (2, 2) if terminal == "xterm" else (0, 0)


def opened(session, terminal):
    """Waits for the probe's choice and photo 1 placed and settled: the cell in pixels and where the
    terminal's first cell starts."""
    chosen = session.wait_for(CHOSEN, 60)
    session.wait_for(placed(1), 60)
    session.placements_settled()
    return (int(chosen[4]), int(chosen[5])), terminal_origin(terminal)


def next_photo(session, photo1, data, cell, origin, label):
    """`j`: photo 2 is placed where the log says, and nothing of photo 1 (the reference and where it
    was) is left outside it. Its log line, and photo 2 as (reference, x, y)."""
    session.keys("j")
    second, screen, rmse, fx, fy = shown(session, 2, "2-next", data, cell, origin, label)
    stray = colourful(screen, cell, [rect(second)])
    # Photo 2 may cover some of photo 1's cells; the rest must no longer show photo 1.
    left_behind = remains(screen, *photo1, cell, covered=[(fx, fy, int(second[7]), int(second[8]))])
    if stray > 0.001 or left_behind > 0.02:
        raise Failure(f"{label}: after j, {stray:.1%} colourful pixels outside photo 2 and {left_behind:.0%} of photo 1's uncovered cells still show it")
    photo2 = (reference(data, 2, int(second[7]), int(second[8])), fx, fy)
    # The checks after look for photo 2 where it was: they prove something only if it is found there now.
    found_there(screen, photo2, cell, f"{label}: photo 2")
    ok(f"{label}: j shows photo 2 at {fx},{fy} (RMSE {rmse:.3f}) and nothing of photo 1 remains ({left_behind:.0%} of its uncovered cells)")
    return second, photo2


def resized_photo(session, photo2, data, cell, origin, label, shot):
    """The window made 96×30 cells: photo 2 (as (reference, x, y)) placed again where the log says, and
    nothing of it where it was, nor any colour outside it or beyond the window. Photo 2 as placed now."""
    run("xdotool", "windowsize", session.window(), str(96 * cell[0]), str(30 * cell[1]), env=session.environment)
    resized, screen, rmse, fx, fy = shown(session, 2, shot, data, cell, origin, label)
    stray = colourful(screen, cell, [rect(resized)], rows=(1, 29), columns=(0, 96))
    beyond = colourful(screen, cell, [], rows=(0, ROWS), columns=(96, COLUMNS))
    old = remains(screen, *photo2, cell, covered=[(fx, fy, int(resized[7]), int(resized[8]))])
    if stray > 0.001 or beyond > 0.001 or old > 0.02:
        raise Failure(f"{label}: after the resize {stray:.1%} colourful pixels outside photo 2, {beyond:.1%} beyond the window, {old:.0%} of the old placement's cells")
    ok(f"{label}: after a resize to 96×30 photo 2 is placed again at {fx},{fy} (RMSE {rmse:.3f}), nothing stale")
    return reference(data, 2, int(resized[7]), int(resized[8])), fx, fy


def check_terminal(display, terminal, folder, data):
    session = Session(display, terminal, folder)
    label = terminal
    try:
        chosen = session.wait_for(CHOSEN, 60)
        mode, cell = chosen[1], (int(chosen[4]), int(chosen[5]))
        expected = {"xterm": "sixel", "kitty": "kitty", "mlterm": "iterm"}[terminal]
        if mode != expected:
            raise Failure(f"{label}: chose {mode} ({chosen[2]}), expected {expected}")
        ok(f"{label}: the probe chose {mode} ({chosen[2]}), colours {chosen[3]}, cell {cell[0]}×{cell[1]}")
        origin = terminal_origin(terminal)

        first, screen, rmse, fx, fy = shown(session, 1, "1-start", data, cell, origin, label, seconds=60)
        stray = colourful(screen, cell, [rect(first)])
        if stray > 0.001:
            raise Failure(f"{label}: {stray:.1%} colourful pixels outside the placed image at the start")
        photo1 = (reference(data, 1, int(first[7]), int(first[8])), fx, fy)
        shown_now = found_there(screen, photo1, cell, f"{label}: photo 1")
        ok(f"{label}: photo 1 ({first[7]}×{first[8]} px in {first[3]}×{first[4]} cells) found at {fx},{fy}, RMSE {rmse:.3f}, {shown_now:.0%} of its cells")

        second, photo2 = next_photo(session, photo1, data, cell, origin, label)

        session.keys("question")
        time.sleep(1.5)
        screen = session.shot("3-help")
        # The help box, as wide as its lines, covers the side pane at this width: no image pixel may
        # show anywhere in the body.
        over = colourful(screen, cell, [], columns=(12, COLUMNS))
        under = remains(screen, *photo2, cell)
        if over > 0.002 or under > 0.02:
            raise Failure(f"{label}: {over:.1%} colourful pixels over the help, {under:.0%} of photo 2's cells under it still show")
        ok(f"{label}: ? shows the help with no image pixel over it ({over:.2%} colourful, {under:.0%} of photo 2's cells)")

        session.keys("Escape")
        _, screen, rmse, fx, fy = shown(session, 2, "4-back", data, cell, origin, label)
        ok(f"{label}: Esc closes the help and photo 2 is back at {fx},{fy} (RMSE {rmse:.3f})")

        # Ctrl-Z gives the terminal back to the shell with no image on it; `fg` brings it back.
        session.keys("ctrl+z")
        time.sleep(1.5)
        screen = session.shot("5-suspended")
        left = vivid(screen).mean()
        kept = remains(screen, *photo2, cell)
        if left > 0.0005 or kept > 0.02:
            # What the app said about the key: whether it came, the job's groups, whether it stopped.
            said = [line.split(": ", 1)[-1] for line in session.lines() if "ctrl-z" in line or "continued after" in line]
            raise Failure(f"{label}: after Ctrl-Z {left:.2%} of the screen is still colourful and {kept:.0%} of photo 2's cells show: "
                          f"an image was left behind (the log: {said or 'no ctrl-z received'})")
        session.type("fg")
        _, screen, rmse, fx, fy = shown(session, 2, "6-continued", data, cell, origin, label)
        ok(f"{label}: Ctrl-Z leaves the shell with no image on it; after fg photo 2 is back at {fx},{fy} (RMSE {rmse:.3f})")

        photo2 = resized_photo(session, photo2, data, cell, origin, label, "7-resized")

        session.keys("Tab")
        session.wait_for(PLACED, 20)
        session.read -= 1
        tiles = session.placements_settled(quiet=2.0)
        screen = session.shot("8-grid")
        if len(tiles) < 5:
            raise Failure(f"{label}: the grid placed {len(tiles)} thumbnails")
        found = [check_placed(session, screen, data, cell, tile, origin, label) for tile in tiles]
        worst = max(rmse for rmse, _, _ in found)
        stray = colourful(screen, cell, [rect(tile) for tile in tiles], rows=(1, 29), columns=(0, 96))
        pane = remains(screen, *photo2, cell, covered=[(tx, ty, int(tile[7]), int(tile[8])) for tile, (_, tx, ty) in zip(tiles, found)])
        if stray > 0.001 or pane > 0.02:
            raise Failure(f"{label}: {stray:.1%} colourful pixels outside the grid's thumbnails, {pane:.0%} of the side pane's photo 2 left")
        ok(f"{label}: Tab shows {len(tiles)} thumbnails in real pixels, each where the log says (worst RMSE {worst:.3f})")

        session.keys("p")
        full, screen, rmse, fx, fy = shown(session, 2, "9-full-screen", data, cell, origin, label)
        stray = colourful(screen, cell, [rect(full)], rows=(1, 29), columns=(0, 96))
        thumbnails = [remains(screen, reference(data, int(tile[1]), int(tile[7]), int(tile[8])), tx, ty, cell,
                              covered=[(fx, fy, int(full[7]), int(full[8]))]) for tile, (_, tx, ty) in zip(tiles, found)]
        if stray > 0.001 or max(thumbnails, default=0) > 0.02:
            raise Failure(f"{label}: full screen, {stray:.1%} colourful pixels outside the photo, thumbnails' cells still showing {max(thumbnails, default=0):.0%}")
        ok(f"{label}: p shows photo 2 full screen ({full[7]}×{full[8]} px) at {fx},{fy} (RMSE {rmse:.3f}), no thumbnail left")
    finally:
        session.close()


def check_moves(display, terminal, folder, data):
    """Images stay with the cells they were placed on while the rows around them move: the list
    restacked by `b`, filtered as a query is typed, paged, left for the grid and come back to; and no
    image shows through the help over the list, the grid or the full-screen photo. After each step the
    current image must be where the log placed it, no vivid pixel may be outside it, and no photo
    placed during the check may show anywhere else (more than a tenth of its cells), where it was placed
    or shifted by up to three rows (a terminal scrolling the rows would have moved its pixels with them)."""
    # Every byte photopick writes, through `script` (util-linux) between it and the terminal: ncurses
    # must never scroll, since a terminal moves an image's pixels with the rows they lie on.
    capture, wrapper = f"{folder}/terminal-bytes", f"{folder}/capture.sh"
    with open(wrapper, "w") as file:
        file.write(f'#!/bin/sh\nexec script -q -f -c "$*" {capture}\n')
    os.chmod(wrapper, 0o755)
    session = Session(display, terminal, folder, wrapper=(wrapper,))
    label = f"{terminal} moves"
    try:
        cell, origin = opened(session, terminal)
        seen = {}

        def history():
            for line in session.lines():
                match = PLACED.search(line)
                if match and match.group(0) not in seen:
                    x, y, columns, rows = rect(match)
                    width, height = int(match[7]), int(match[8])
                    centred = match[2] == "iterm"
                    px = origin[0] + x * cell[0] + (columns * cell[0] - width) // 2 * centred
                    py = origin[1] + y * cell[1] + (rows * cell[1] - height) // 2 * centred
                    seen[match.group(0)] = (reference(data, int(match[1]), width, height), px, py)
            return seen

        def last_placement():
            return [m for m in (PLACED.search(line) for line in session.lines()) if m][-1]

        def step(name, keys, current=None):
            """Presses `keys`, waits for the screen to settle and checks it. `current`: the placements
            that should show (default: the last one, the side pane's photo); [] for none."""
            session.keys(*keys)
            batch = session.placements_settled(quiet=1.5)
            screen = session.shot(name)
            wanted = [last_placement()] if current is None else (batch if current == "batch" else current)
            allowed, covered = [], []
            for match in wanted:
                _, fx, fy = check_placed(session, screen, data, cell, match, origin, f"{label}: {name}")
                allowed.append(rect(match))
                covered.append((fx, fy, int(match[7]), int(match[8])))
            # The list's gutter and a tile's chips under its name (tags in their own vivid colours) are
            # left out of the net: in the grid, each tile from its thumbnail's row to its chips' row.
            if current == "batch":
                allowed = [(max(0, x - 10), y, w + 20, h + 2) for (x, y, w, h) in allowed]
            stray = colourful(screen, cell, allowed, columns=(12, COLUMNS))
            if stray > 0.001:
                raise Failure(f"{label}: {name}: {stray:.2%} vivid pixels outside the {len(wanted)} image(s) the log says are shown")
            worst = (0.0, "")
            for key, (ref, px, py) in history().items():
                for shift in range(-3, 4):
                    # Not the header or the status line: their blue and grey bars with text on them can pass for a dusk sky.
                    share = remains(screen, ref, px, py + shift * cell[1], cell, covered=covered, structure=True,
                                    body=(origin[1] + cell[1], origin[1] + (ROWS - 1) * cell[1]))
                    worst = max(worst, (share, f"{key.split(': ', 1)[-1]} shifted {shift} rows"))
            # A moved piece is whole rows of the photo; a few cells of a small thumbnail can match text by chance.
            if worst[0] > 0.10:
                raise Failure(f"{label}: {name}: {worst[0]:.0%} of the cells of a photo placed earlier still show it ({worst[1]})")
            ok(f"{label}: {name}: {len(wanted)} image(s) where the log says, {stray:.2%} vivid pixels elsewhere, "
               f"no placed photo anywhere else (worst {worst[0]:.0%} of its cells, of {len(seen)} placements)")

        def blank_beside(name, keys):
            """Presses `keys` (ending in full screen) and finds nothing but the background between the
            header and the caption outside the photo: no text left behind by a width the terminal and
            photopick disagree on (mlterm left the tails of CJK names, kitty a "g" after 🏔️)."""
            session.keys(*keys)
            session.placements_settled(quiet=1.5)
            screen = session.shot(name)
            match = last_placement()
            _, fx, fy = check_placed(session, screen, data, cell, match, origin, f"{label}: {name}")
            # Two pixels in from the header and the caption, whose bars can reach a pixel beyond their row.
            top, bottom = origin[1] + cell[1] + 2, origin[1] + (ROWS - 2) * cell[1] - 2
            body = screen[top:bottom, origin[0]:origin[0] + COLUMNS * cell[0]].copy()
            x0, y0 = fx - origin[0] - 4, fy - top - 4
            body[max(0, y0):y0 + int(match[8]) + 8, max(0, x0):x0 + int(match[7]) + 8] = np.nan
            values = body.reshape(-1, 3)
            values = values[~np.isnan(values).any(axis=1)]
            background = np.median(values, axis=0)
            ink = int((np.abs(values - background).max(axis=1) > 0.25).sum())
            if ink > 20:
                raise Failure(f"{label}: {name}: {ink} pixels of something other than the background beside the full-screen photo")
            ok(f"{label}: {name}: nothing but the background beside the full-screen photo ({ink} stray pixels)")

        def as_drawn(name):
            """The screen as it is against the screen drawn from scratch (Ctrl-L): outside the images,
            every cell the same; a cell that differs is debris, something the terminal shows that
            photopick did not draw there (a name shifted by a width the two disagree on)."""
            before = session.shot(f"{name}-before")
            session.keys("ctrl+l")
            session.placements_settled(quiet=1.5)
            after = session.shot(f"{name}-repainted")
            match = last_placement()
            x, y, columns, rows = rect(match)
            cw, ch = cell
            differs = np.abs(before - after).max(axis=2) > 0.25
            differs[origin[1] + y * ch - 2:origin[1] + (y + rows) * ch + 2, origin[0] + x * cw - 2:origin[0] + (x + columns) * cw + 2] = False
            ys, xs = np.nonzero(differs)
            # A cell counts when more than a glyph's stray pixels differ: mlterm draws DejaVu's U+FFFD a
            # pixel or two past its cell and leaves those when the cell beside it is written again (four
            # pixels on the cursor row after a filter); a name shifted by a width is hundreds of pixels.
            pixels = Counter(((py - origin[1]) // ch, (px - origin[0]) // cw) for py, px in zip(ys, xs))
            cells = sorted(cell for cell, count in pixels.items() if count > 8)
            if len(cells) > 0:
                raise Failure(f"{label}: {name}: {len(cells)} cells differ from the screen drawn again (Ctrl-L), first (row, column) {cells[:6]}")
            ok(f"{label}: {name}: every cell outside the image as Ctrl-L draws it again")

        # From the top of the list, where the demo's CJK and emoji names are.
        blank_beside("full-screen-from-list", ["p"])
        step("list-from-full-screen", ["Escape"])
        step("filter-Lomn", ["slash", "L", "o", "m", "n"])
        step("filter-Lomn-cleared", ["Escape", "Escape"])
        as_drawn("after-filter")
        blank_beside("full-screen-after-filter", ["p"])
        step("list-after-filter", ["Escape"])
        step("stacked", ["b"])
        step("filter-R00", ["slash", "R", "0", "0"])
        step("filter-R00068", ["0", "6", "8"])
        step("filter-cleared", ["Escape", "Escape"])
        step("page-down", ["Next"])
        step("page-down-2", ["Next"])
        step("page-up", ["Prior"])
        step("help-over-list", ["question"], current=[])
        step("help-closed", ["Escape"])
        step("grid", ["Tab"], current="batch")
        step("help-over-grid", ["question"], current=[])
        step("grid-again", ["Escape"], current="batch")
        step("list-again", ["Tab"])
        step("full-screen", ["p"])
        step("help-over-full-screen", ["question"], current=[])
        step("full-screen-again", ["Escape"])
        with open(capture, "rb") as file:
            written = file.read()
        scrolls = re.findall(rb"\x1b\[\d*;\d*r|\x1bM|\x1bD|\x1b\[\d*[LMST]", written)
        if scrolls:
            raise Failure(f"{label}: ncurses scrolled {len(scrolls)} times ({sorted(set(scrolls))[:4]}) in {len(written)} bytes")
        ok(f"{label}: no scroll region, index, line insertion or deletion in the {len(written) >> 10} KB photopick wrote")
    finally:
        session.close()


def check_kitty_elsewhere(display, folder, data):
    """kitty as over SSH: photopick gets a /dev/shm of its own (a private mount), so kitty cannot read
    its shared memory, and the pixels go as PNG in base64 chunks; photo 1, then photo 2 after j, then
    photo 2 full screen are each found in real pixels where the log says."""
    # A private tmpfs on /dev/shm for photopick alone: what the terminal sees is not what it wrote. A
    # script, since kitty reads options such as -c anywhere on its command line.
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode != 0:
        print("# skip kitty elsewhere: unshare --mount is not permitted here (it needs root)", flush=True)
        return
    script = f"{folder}/private-shm.sh"
    with open(script, "w") as file:
        file.write('#!/bin/sh\nmount -t tmpfs tmpfs /dev/shm && exec "$@"\n')
    os.chmod(script, 0o755)
    session = Session(display, "kitty", folder, wrapper=["unshare", "--mount", script])
    label = "kitty elsewhere"
    try:
        chosen = session.wait_for(CHOSEN, 60)
        if chosen[1] != "kitty" or "shared memory" in chosen[2]:
            raise Failure(f"{label}: chose {chosen[1]} ({chosen[2]}), expected kitty without shared memory")
        cell, origin = (int(chosen[4]), int(chosen[5])), terminal_origin("kitty")
        ok(f"{label}: the probe chose kitty, and kitty could not read photopick's shared memory ({chosen[2]})")
        first, _, rmse1, x1, y1 = shown(session, 1, "1-start", data, cell, origin, label, seconds=60)
        session.keys("j")
        second, _, rmse2, x2, y2 = shown(session, 2, "2-next", data, cell, origin, label)
        session.keys("p")
        full, _, rmse3, x3, y3 = shown(session, 2, "3-full-screen", data, cell, origin, label)
        ok(f"{label}: as PNG, photo 1 at {x1},{y1} (RMSE {rmse1:.3f}), photo 2 after j at {x2},{y2} (RMSE {rmse2:.3f}), "
           f"and full screen ({full[7]}×{full[8]} px) at {x3},{y3} (RMSE {rmse3:.3f})")
    finally:
        session.close()


def check_tmux(display, folder, data):
    session = Session(display, "xterm", folder, tmux=True)
    label = "tmux in xterm"
    try:
        chosen = session.wait_for(CHOSEN, 60)
        if chosen[1] != "symbols":
            raise Failure(f"{label}: chose {chosen[1]}, expected symbols")
        ok(f"{label}: falls back to symbols ({chosen[2]})")
        time.sleep(4)
        screen = session.shot("1-symbols")
        # The side pane's preview, in the window's right quarter below the header, is in colour.
        geometry = run("xdotool", "getwindowgeometry", session.window(), env=session.environment)
        width, height = (int(value) for value in re.search(r"Geometry: (\d+)x(\d+)", geometry).groups())
        region = (slice(height // 20, height // 2), slice(width * 3 // 4, width))
        pane = chromatic(screen[region]).mean()
        # The pane's text (names in blue) is a few percent; the landscape in symbols is a fifth or more.
        if pane < 0.08:
            raise Failure(f"{label}: the preview in symbols shows little colour ({pane:.1%} coloured pixels in the pane)")
        ok(f"{label}: the preview is drawn in symbols, in colour ({pane:.0%} coloured pixels in the pane)")
        session.tmux_command("select-window", "-t", "e2e:2")
        time.sleep(1.5)
        screen = session.shot("2-other-window")
        saturated = vivid(screen)
        left = chromatic(screen[region]).mean()
        if saturated.mean() > 0.0005 or left > 0.002:
            raise Failure(f"{label}: {saturated.mean():.2%} colourful pixels, {left:.1%} coloured in the pane left after switching tmux windows")
        ok(f"{label}: switching to another tmux window leaves nothing of the preview ({saturated.mean():.3%} colourful, {left:.2%} coloured in the pane)")
    finally:
        session.close()


def check_tmux_pixels(display, terminal, folder, data):
    """Real pixels inside tmux 3.4 or later: in xterm, sixel that tmux draws itself (no passthrough); in
    kitty 0.28 or later, kitty's Unicode placeholders through tmux's passthrough. Each step finds the
    image where the log places it and nothing stale: j, the help over it, another tmux window and back
    (tmux redraws the image itself), a second pane beside it (the image clipped to photopick's pane,
    none in the other), a resize, full screen and the loupe one for one; and after q, with the pane
    kept, no image left."""
    options = ["set -g remain-on-exit on"] + (["set -g allow-passthrough on"] if terminal == "kitty" else [])
    session = Session(display, terminal, folder, tmux=True, tmux_options=options)
    version = session.tmux_command("-V").strip()
    label = f"{terminal} in {version}"
    expected = {"xterm": ("sixel", "draws sixel itself"), "kitty": ("kitty", "placeholders")}[terminal]
    try:
        chosen = session.wait_for(CHOSEN, 60)
        mode, cell = chosen[1], (int(chosen[4]), int(chosen[5]))
        if mode != expected[0] or expected[1] not in chosen[2]:
            raise Failure(f"{label}: chose {mode} ({chosen[2]}), expected {expected[0]} ({expected[1]})")
        ok(f"{label}: the probe chose {mode} ({chosen[2]}), colours {chosen[3]}, cell {cell[0]}×{cell[1]}")
        origin = terminal_origin(terminal)
        first, screen, rmse, fx, fy = shown(session, 1, "1-start", data, cell, origin, label, seconds=60)
        stray = colourful(screen, cell, [rect(first)])
        photo1 = (reference(data, 1, int(first[7]), int(first[8])), fx, fy)
        if stray > 0.001:
            raise Failure(f"{label}: {stray:.1%} colourful pixels outside the placed image at the start")
        ok(f"{label}: photo 1 ({first[7]}×{first[8]} px in {first[3]}×{first[4]} cells) found at {fx},{fy}, RMSE {rmse:.3f}, {found_there(screen, photo1, cell, label):.0%} of its cells")

        second, photo2 = next_photo(session, photo1, data, cell, origin, label)
        fx, fy = photo2[1], photo2[2]

        session.keys("question")
        time.sleep(1.5)
        screen = session.shot("3-help")
        # The help box's columns, from its top border in tmux's copy of the pane. Sixel that tmux draws
        # goes whole once text covers part of it; placeholder cells the box leaves show their part of
        # the photo, as text beside the box would, so only the box itself must hold no image pixel.
        pane = session.tmux_command("capture-pane", "-p", "-t", "e2e:0.0").splitlines()
        top = next(line for line in pane if "Keys" in line and "┐" in line)
        right = len(top.rstrip()) if terminal == "kitty" else COLUMNS
        box = (0, 0, right * cell[0], ROWS * cell[1])
        over = colourful(screen, cell, [], columns=(12, right))
        under = remains(screen, *photo2, cell, keep=(origin[0] + box[0], origin[1] + box[1], box[2], box[3]))
        if over > 0.002 or under > 0.02:
            raise Failure(f"{label}: {over:.1%} colourful pixels over the help (columns 12–{right}), {under:.0%} of photo 2's cells under it still show")
        session.keys("Escape")
        _, screen, rmse, fx, fy = shown(session, 2, "4-back", data, cell, origin, label)
        ok(f"{label}: ? shows the help with no image pixel over it ({over:.2%} colourful); Esc brings photo 2 back at {fx},{fy} (RMSE {rmse:.3f})")

        # Another tmux window: photopick is not told, and tmux alone hides the image and shows it again.
        session.tmux_command("select-window", "-t", "e2e:2")
        time.sleep(1.5)
        screen = session.shot("5-other-window")
        hidden, kept = vivid(screen).mean(), remains(screen, *photo2, cell)
        if hidden > 0.0005 or kept > 0.02:
            raise Failure(f"{label}: in another tmux window {hidden:.2%} of the screen is colourful and {kept:.0%} of photo 2's cells show")
        session.tmux_command("select-window", "-t", "e2e:0")
        time.sleep(1.5)
        session.screen_steady(time.monotonic() + 10)
        screen = session.shot("6-window-back")
        rmse, bx, by = find(screen, photo2[0], fx, fy, radius=4)
        if rmse > THRESHOLD:
            raise Failure(f"{label}: back in photopick's tmux window, photo 2 is not redrawn at {fx},{fy}: best RMSE {rmse:.3f} at {bx},{by}")
        ok(f"{label}: another tmux window shows nothing of photo 2 ({hidden:.3%} colourful); back in photopick's, tmux redraws it at {bx},{by} (RMSE {rmse:.3f})")

        # A pane beside photopick's: photopick lays out for its narrower pane; nothing shows in the other.
        session.tmux_command("split-window", "-h", "-d", "-t", "e2e:0", "-l", "24", "exec sleep 3600")
        split, screen, rmse, sx, sy = shown(session, 2, "7-split", data, cell, origin, label)
        width = int(session.tmux_command("display", "-p", "-t", "e2e:0.0", "#{pane_width}").strip())
        x, _, columns, _ = rect(split)
        # Past tmux's border between the panes (drawn green on the active one).
        beyond = colourful(screen, cell, [], rows=(0, ROWS), columns=(width + 1, COLUMNS))
        stray = colourful(screen, cell, [rect(split)], columns=(0, width))
        if x + columns > width or beyond > 0.001 or stray > 0.001:
            raise Failure(f"{label}: split, photo 2 at columns {x}–{x + columns} of a {width}-column pane; {beyond:.1%} colourful in the other pane, {stray:.1%} stray in photopick's")
        session.tmux_command("kill-pane", "-t", "e2e:0.1")
        back, screen, rmse, fx, fy = shown(session, 2, "8-unsplit", data, cell, origin, label)
        old = remains(screen, reference(data, 2, int(split[7]), int(split[8])), sx, sy, cell, covered=[(fx, fy, int(back[7]), int(back[8]))])
        if old > 0.02:
            raise Failure(f"{label}: with the other pane gone, {old:.0%} of the split layout's photo 2 still shows")
        ok(f"{label}: a pane beside it: photo 2 placed again inside photopick's {width} columns at {sx},{sy}, nothing in the other pane; closed, it is placed again for the whole width at {fx},{fy}")
        photo2 = (reference(data, 2, int(back[7]), int(back[8])), fx, fy)

        resized_photo(session, photo2, data, cell, origin, label, "9-resized")

        session.keys("p")
        full, screen, rmse, fx, fy = shown(session, 2, "10-full-screen", data, cell, origin, label)
        stray = colourful(screen, cell, [rect(full)], rows=(1, 29), columns=(0, 96))
        if stray > 0.001:
            raise Failure(f"{label}: full screen, {stray:.1%} colourful pixels outside the photo")
        ok(f"{label}: p shows photo 2 full screen ({full[7]}×{full[8]} px) at {fx},{fy} (RMSE {rmse:.3f})")

        session.keys("z")
        view = loupe_shown(session, 2, label)
        x, y, width, height = (int(view[n]) for n in range(3, 7))
        place = placed_view(session, 2, width, height)
        session.placements_settled(quiet=1.5)
        screen = session.shot("11-loupe")
        ref = original_region(data, 2, x, y, width, height)
        rmse, lx, ly = find(screen, ref, origin[0] + int(place[5]) * cell[0], origin[1] + int(place[6]) * cell[1], radius=8)
        if rmse > THRESHOLD:
            raise Failure(f"{label}: the loupe's {width}×{height} of the original at {x},{y} is not on screen: best RMSE {rmse:.3f} at {lx},{ly}")
        ok(f"{label}: z shows the original's {width}×{height} pixels at {x},{y} one for one (RMSE {rmse:.3f})")

        session.keys("q")
        time.sleep(2)
        screen = session.shot("12-quit")
        left = vivid(screen).mean()
        there = float(np.sqrt(np.mean((screen[ly:ly + height, lx:lx + width] - ref) ** 2)))
        dead = session.tmux_command("display", "-p", "-t", "e2e:0.0", "#{pane_dead}").strip()
        if dead != "1" or left > 0.0005 or there < 0.05:
            raise Failure(f"{label}: after q (pane dead: {dead}) {left:.2%} of the screen is colourful, the loupe's view RMSE {there:.3f} against the screen")
        ok(f"{label}: q ends photopick and leaves no image in its pane ({left:.3%} colourful)")
    finally:
        session.close()


def check_unanswered(folder, answer, label):
    """photopick on a pseudo-terminal that answers the probe with `answer` (None: nothing): the screen
    must be up within 1.2 s of the start, in symbols, and no reply may show as text."""
    import pty
    import select
    environment = dict(os.environ, TERM="xterm-256color", XDG_CONFIG_HOME=f"{folder}/config", XDG_STATE_HOME=f"{folder}/state",
                       XDG_CACHE_HOME=f"{folder}/cache", XDG_DATA_HOME=os.environ["PHOTOPICK_E2E_DATA"], COLUMNS="100", LINES="30")
    for name in ["TMUX", "COLORTERM", "TERM_PROGRAM", "KITTY_WINDOW_ID", "MLTERM", "DISPLAY"]:
        environment.pop(name, None)
    started = time.monotonic()
    pid, descriptor = pty.fork()
    if pid == 0:
        os.execve(BINARY, [BINARY, "--log-level", "debug"], environment)
    output, answered, screen_at = b"", False, None
    try:
        deadline = started + 15
        while time.monotonic() < deadline:
            ready, _, _ = select.select([descriptor], [], [], 0.05)
            if ready:
                try:
                    output += os.read(descriptor, 65536)
                except OSError:
                    break
            if answer is not None and not answered and b"\x1b[c" in output:
                os.write(descriptor, answer)
                answered = True
            if screen_at is None and b"\x1b[?1049h" in output:
                screen_at = time.monotonic() - started
            if screen_at is not None and b"2,000 photos" in output:
                break
        os.write(descriptor, b"q")
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(descriptor)
    log = open(f"{folder}/state/photopick/photopick.log").read()
    chosen = CHOSEN.search(log)
    if screen_at is None or screen_at > 1.2:
        raise Failure(f"{label}: the screen took {screen_at} s to start")
    if not chosen or chosen[1] != "symbols":
        raise Failure(f"{label}: chose {chosen[1] if chosen else 'nothing'}, not symbols")
    shown = output.split(b"\x1b[?1049h", 1)[-1]
    if answer is not None and b"garbage" in shown:
        raise Failure(f"{label}: the reply reached the screen as text")
    if os.WEXITSTATUS(status) != 0:
        raise Failure(f"{label}: exit status {os.WEXITSTATUS(status)}")
    ok(f"{label}: the screen is up {screen_at:.2f} s after the start, in symbols ({chosen[2]}), and q quits cleanly")


def nearest256(rgb):
    """The xterm-256 cube colour photopick's 256-colour theme uses for a tag colour (Theme.nearest256; a
    colour this saturated never takes the grey ramp)."""
    levels = [0, 95, 135, 175, 215, 255]
    return tuple(min(levels, key=lambda level: abs(level - value)) for value in rgb)


def check_compare(display, folder, data):
    """Compare of a burst in kitty: the demo's photos 3 to 8 are one burst; on photo 3, C shows four
    of its frames side by side, each placed in real pixels where the log says and found there; l moves
    the active frame without moving the images, and on to the last frame scrolls to frames 5–8."""
    session = Session(display, "kitty", folder)
    label = "kitty compare"
    try:
        chosen = session.wait_for(CHOSEN, 60)
        cell = (int(chosen[4]), int(chosen[5]))
        origin = terminal_origin("kitty")
        session.wait_for(placed(1), 60)
        session.placements_settled()
        session.keys("j", "j")
        session.wait_for(placed(3), 30)
        session.placements_settled()
        session.keys("C")
        session.wait_for(PLACED, 30)
        session.read -= 1
        frames = session.placements_settled(quiet=2.0)
        screen = session.shot("1-compare")
        photos = sorted({int(match[1]) for match in frames})
        if photos != [3, 4, 5, 6]:
            raise Failure(f"{label}: compare placed photos {photos}, expected the burst's first four frames 3, 4, 5, 6")
        latest = {int(match[1]): match for match in frames}
        found = {photo: check_placed(session, screen, data, cell, latest[photo], origin, label) for photo in photos}
        worst = max(rmse for rmse, _, _ in found.values())
        ok(f"{label}: C on photo 3 shows frames 3–6 of its burst side by side, each in real pixels where the log says (worst RMSE {worst:.3f})")
        session.keys("l")
        time.sleep(1.5)
        screen = session.shot("2-active")
        worst = max(check_placed(session, screen, data, cell, latest[photo], origin, label)[0] for photo in photos)
        ok(f"{label}: l makes the next frame active and every frame stays in place (worst RMSE {worst:.3f})")
        # The burst has six frames and four show at once: l on to the last scrolls them to frames 5–8, so
        # every frame of the burst has been on screen.
        session.placements_settled(quiet=0.5)
        mark = session.read
        session.keys("l", "l", "l", "l")
        session.wait_for(placed(8), 30)
        session.placements_settled(quiet=2.0)
        scrolled = {}
        for line in session.lines()[mark:]:
            match = PLACED.search(line)
            if match:
                scrolled[int(match[1])] = match
        screen = session.shot("3-scrolled")
        shown_now = [5, 6, 7, 8]
        if not set(shown_now) <= set(scrolled):
            raise Failure(f"{label}: after l to the last frame, photos {sorted(scrolled)} were placed; expected frames 5–8 among them")
        again = {photo: check_placed(session, screen, data, cell, scrolled[photo], origin, label) for photo in shown_now}
        ok(f"{label}: l to the sixth frame scrolls compare to frames 5–8, each in real pixels where the log says "
           f"(worst RMSE {max(r for r, _, _ in again.values()):.3f}): every frame of the burst was shown")
        session.keys("Escape")
        back = session.placements_settled(quiet=1.5)
        screen = session.shot("4-back")
        # The list's side pane shows photo 3 again; frames 5–8 must be gone from where compare put them.
        covered = [(x, y, int(match[7]), int(match[8])) for match in back for _, x, y in [check_placed(session, screen, data, cell, match, origin, label)]]
        left = max(remains(screen, reference(data, photo, int(scrolled[photo][7]), int(scrolled[photo][8])), again[photo][1], again[photo][2], cell,
                           covered=covered) for photo in shown_now)
        # A frame left behind shows in most of its cells. These dusk frames' flat, greyish sky matches a few
        # cells of the list's grey cursor row by chance (up to 4% in a screenshot that shows nothing left).
        if left > 0.06:
            raise Failure(f"{label}: after Esc {left:.0%} of a compared frame's cells still show it")
        ok(f"{label}: Esc returns to the list and no compared frame is left ({left:.0%} of their cells)")
    finally:
        session.close()


LOUPE = re.compile(r"loupe view: photo (\d+), (\w+), at (\d+),(\d+), pixels (\d+)×(\d+) of (\d+)×(\d+)")


def original_region(data, photo, x, y, width, height):
    """Pixels of the demo's original of `photo`, one for one, as the loupe should show them."""
    with Image.open(f"{data}/photopick/demo/images/{photo}-original.jpg") as image:
        return np.asarray(image.convert("RGB").crop((x, y, x + width, y + height))).astype(np.float32) / 255


def loupe_shown(session, photo, label, seconds=60):
    """The loupe's view of the original once drawn: its log line, after the stand-in's if one came first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        match = session.wait_for(re.compile(LOUPE.pattern.replace(r"(\d+)", f"({photo})", 1)), max(1, deadline - time.monotonic()))
        if match[2] == "original":
            return match
    raise Failure(f"{label}: the original of photo {photo} never showed in the loupe")


def placed_view(session, photo, width, height, seconds=30):
    """The placement of `photo` that shows a view of `width`×`height` pixels: the writer logs it once the
    image is out, which may be after the app names the view the frame drew."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for line in reversed(session.lines()):
            match = placed(photo).search(line)
            if match and (int(match[7]), int(match[8])) == (width, height):
                return match
        time.sleep(0.1)
    raise Failure(f"photo {photo}'s view of {width}×{height} pixels was never placed")


def check_loupe(display, terminal, folder, data):
    """The 100% loupe in a real terminal: on photo 1 full screen, z shows the part of the original the log
    names, one image pixel per screen pixel (RMSE against the demo's original cropped there, found where
    the image was placed), and l pans it by a third of the view, the new part found there in turn."""
    session = Session(display, terminal, folder)
    label = f"{terminal} loupe"
    try:
        cell, origin = opened(session, terminal)
        session.keys("p")
        session.wait_for(placed(1), 30)
        session.placements_settled()
        session.keys("z")
        first = loupe_shown(session, 1, label)
        x, y, width, height = (int(first[n]) for n in range(3, 7))
        place = placed_view(session, 1, width, height)
        session.placements_settled(quiet=1.5)
        ref = original_region(data, 1, x, y, width, height)
        screen = session.shot("1-loupe")
        columns, rows = int(place[3]), int(place[4])
        expected_x = origin[0] + int(place[5]) * cell[0] + (columns * cell[0] - width) // 2 * (terminal == "mlterm")
        expected_y = origin[1] + int(place[6]) * cell[1] + (rows * cell[1] - height) // 2 * (terminal == "mlterm")
        rmse, fx, fy = find(screen, ref, expected_x, expected_y, radius=8)
        if rmse > THRESHOLD:
            raise Failure(f"{label}: the original's {width}×{height} at {x},{y} not found near {expected_x},{expected_y}: best RMSE {rmse:.3f} at {fx},{fy}")
        blurred = np.asarray(Image.fromarray((ref * 255).astype(np.uint8)).resize((width // 4, height // 4), Image.BILINEAR)
                             .resize((width, height), Image.BILINEAR)).astype(np.float32) / 255
        soft = float(np.sqrt(np.mean((screen[fy:fy + height, fx:fx + width] - blurred) ** 2)))
        if soft <= rmse:
            raise Failure(f"{label}: the view matches a quarter-scale enlargement as well as the original (RMSE {soft:.3f} vs {rmse:.3f}): not 1:1")
        ok(f"{label}: z shows the original's {width}×{height} pixels at {x},{y} of {first[7]}×{first[8]} one for one (RMSE {rmse:.3f}, a 4× enlargement {soft:.3f})")
        session.keys("l")
        panned = loupe_shown(session, 1, label, 30)
        nx, ny = int(panned[3]), int(panned[4])
        step = width // 3
        if (nx, ny) != (min(x + step, int(panned[7]) - width), y):
            raise Failure(f"{label}: l moved the view from {x},{y} to {nx},{ny}, not by a third of its width ({step})")
        session.placements_settled(quiet=1.5)
        screen = session.shot("2-panned")
        moved = original_region(data, 1, nx, ny, width, height)
        rmse, fx2, fy2 = find(screen, moved, fx, fy, radius=4)
        if rmse > THRESHOLD:
            raise Failure(f"{label}: after l the original at {nx},{ny} is not on screen: best RMSE {rmse:.3f} at {fx2},{fy2}")
        stale = float(np.sqrt(np.mean((screen[fy:fy + height, fx:fx + width] - ref) ** 2)))
        # The landscapes are smooth in places, so the old view is told from the new by comparison.
        if stale < max(0.03, 3 * rmse):
            raise Failure(f"{label}: after l the screen still shows the view before the pan (RMSE {stale:.3f})")
        ok(f"{label}: l pans by a third ({step} pixels) and the new part of the original shows one for one (RMSE {rmse:.3f}; the old view {stale:.3f})")
        session.keys("z")
        session.wait_for(placed(1), 30)
        session.placements_settled()
        screen = session.shot("3-back")
        left = float(np.sqrt(np.mean((screen[fy2:fy2 + height, fx2:fx2 + width] - moved) ** 2)))
        if left < max(0.03, 3 * rmse):
            raise Failure(f"{label}: after z the loupe's view is still on screen (RMSE {left:.3f})")
        ok(f"{label}: z again returns to the full-screen preview, and the loupe's view is gone (RMSE {left:.3f} against it)")
    finally:
        session.close()


def check_compare_loupe(display, folder, data):
    """The loupe in compare, in kitty: on photo 3, C then z shows every frame of the burst at 100% around
    one point, the same part of each original (the log's view, found on screen one for one), and l pans
    them all together."""
    session = Session(display, "kitty", folder)
    label = "kitty compare loupe"
    try:
        chosen = session.wait_for(CHOSEN, 60)
        cell = (int(chosen[4]), int(chosen[5]))
        session.wait_for(placed(1), 60)
        session.placements_settled()
        session.keys("j", "j")
        session.wait_for(placed(3), 30)
        session.placements_settled()
        session.keys("C")
        session.wait_for(placed(6), 30)
        session.placements_settled()
        session.keys("z")
        photos = [3, 4, 5, 6]

        def views(step):
            found = {}
            deadline = time.monotonic() + 90
            while len(found) < len(photos) and time.monotonic() < deadline:
                match = session.wait_for(LOUPE, max(1, deadline - time.monotonic()))
                if match[2] == "original":
                    found[int(match[1])] = match
            session.placements_settled(quiet=1.5)
            screen = session.shot(step)
            worst = 0.0
            for photo, match in found.items():
                x, y, width, height = (int(match[n]) for n in range(3, 7))
                place = None
                for line in reversed(session.lines()):
                    place = placed(photo).search(line)
                    if place and (int(place[7]), int(place[8])) == (width, height):
                        break
                if not place:
                    raise Failure(f"{label}: photo {photo}'s view was never placed")
                ref = original_region(data, photo, x, y, width, height)
                rmse, fx, fy = find(screen, ref, int(place[5]) * cell[0], int(place[6]) * cell[1], radius=4)
                if rmse > THRESHOLD:
                    raise Failure(f"{label}: photo {photo}'s original at {x},{y} is not where it was placed: RMSE {rmse:.3f}")
                worst = max(worst, rmse)
                where[photo] = (fx, fy, ref, rmse)
            return found, worst

        where = {}

        first, worst = views("1-zoomed")
        if sorted(first) != photos:
            raise Failure(f"{label}: the loupe showed photos {sorted(first)}, expected {photos}")
        points = {(int(m[3]), int(m[4])) for m in first.values()}
        if len(points) != 1:
            raise Failure(f"{label}: the frames show different parts: {sorted(points)}")
        ok(f"{label}: z shows frames 3–6 at 100% around the same point {points.pop()}, each one for one (worst RMSE {worst:.3f})")
        before = {photo: (int(m[3]), int(m[4]), int(m[5])) for photo, m in first.items()}
        session.keys("l")
        moved, worst = views("2-panned")
        after = {photo: (int(m[3]), int(m[4])) for photo, m in moved.items()}
        expected = {photo: (min(x + width // 3, int(first[photo][7]) - width), y) for photo, (x, y, width) in before.items()}
        if after != expected:
            raise Failure(f"{label}: l moved the views to {after}, expected {expected}")
        ok(f"{label}: l pans every frame together by a third of the view (worst RMSE {worst:.3f})")
        # z again: compare's fitted frames come back, and no loupe view is left where it was drawn.
        session.keys("z")
        session.wait_for(placed(6), 30)
        session.placements_settled(quiet=1.5)
        screen = session.shot("3-back")
        for photo, (fx, fy, ref, rmse) in where.items():
            height, width = ref.shape[:2]
            left = float(np.sqrt(np.mean((screen[fy:fy + height, fx:fx + width] - ref) ** 2)))
            if left < max(0.03, 3 * rmse):
                raise Failure(f"{label}: after z photo {photo}'s loupe view is still on screen (RMSE {left:.3f})")
        ok(f"{label}: z returns to compare and no frame's loupe view is left on screen")
    finally:
        session.close()


def check_marks(display, folder):
    """Culling marks in their colours, as a person sees them: in xterm, cull mode, then P, 3 and 6 on the
    first three photos; the pick flag, the stars and the red label must show in their colours where the
    list's marks column is. A library of its own, so the marks do not colour the other checks' screens."""
    shared = os.environ.pop("PHOTOPICK_E2E_DATA", None)
    try:
        session = Session(display, "xterm", folder)
    finally:
        if shared is not None:
            os.environ["PHOTOPICK_E2E_DATA"] = shared
    label = "xterm marks"
    try:
        chosen = session.wait_for(CHOSEN, 60)
        cell = (int(chosen[4]), int(chosen[5]))
        ox, oy = terminal_origin("xterm")
        session.wait_for(PLACED, 60)
        session.keys("c", "P", "3", "6", "Escape")
        time.sleep(2.0)
        screen = session.shot("marks")
        cw, ch = cell
        expected = [(2, "pick flag", (0x22, 0xC5, 0x5E)), (3, "three stars", (0xF5, 0xB3, 0x01)), (4, "red label", (0xE5, 0x48, 0x4D))]
        for row, what, rgb in expected:
            # The marks: after the selection mark and any tag chips, within the first 16 columns of the list.
            region = screen[oy + row * ch:oy + (row + 1) * ch, ox + 2 * cw:ox + 16 * cw] * 255
            found = 0
            for colour in {rgb, nearest256(rgb)}:
                distance = np.abs(region - np.array(colour, dtype=np.float32)).max(axis=2)
                found = max(found, int((distance < 40).sum()))
            if found < 8:
                raise Failure(f"{label}: row {row}: no {what} in #{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x} (or its 256-colour match) in the marks column ({found} pixels)")
            ok(f"{label}: the {what} shows in its colour on row {row} ({found} pixels)")
    finally:
        session.close()


def main():
    # The root's terminals are today's (Tests/e2e/debian13.sh): tmux there draws sixel and kitty has
    # placeholders, so its cases are the terminals alone and inside tmux, and the moves.
    today = ["xterm", "kitty", "tmux-xterm", "tmux-kitty", "moves-xterm", "moves-kitty", "loupe-xterm", "loupe-kitty"]
    wanted = sys.argv[1:] or (today if TERMINALS_ROOT else ["xterm", "kitty", "kitty-elsewhere", "mlterm", "moves-xterm", "moves-kitty", "moves-mlterm", "tmux", "silent", "garbage", "marks", "compare", "loupe-kitty", "loupe-xterm", "loupe-mlterm", "loupe-compare"])
    here = ["Xvfb", "xdpyinfo", "import", "xdotool"]
    there = ["xterm", "kitty", "tmux"] + ([] if TERMINALS_ROOT else ["mlterm"])
    missing = [tool for tool in here if shutil.which(tool) is None]
    missing += [tool for tool in there if subprocess.run([*IN_ROOT, "sh", "-c", f"command -v {tool}"], capture_output=True).returncode != 0]
    if missing:
        print(f"graphics.py: missing {', '.join(missing)}; install them (Debian: xvfb x11-utils xterm kitty mlterm tmux imagemagick xdotool)", file=sys.stderr)
        return 2
    if not os.access(BINARY, os.X_OK):
        print(f"graphics.py: {BINARY} is not built; run swift build first", file=sys.stderr)
        return 2
    started = time.monotonic()
    base = tempfile.mkdtemp(prefix="photopick-graphics.")
    # One demo library for every terminal: it is generated once, on the first start.
    data = f"{base}/data"
    os.environ["PHOTOPICK_E2E_DATA"] = data
    failed = False
    with Display() as display:
        for name in wanted:
            folder = f"{base}/{name}"
            os.makedirs(folder)
            try:
                if name == "tmux":
                    check_tmux(display, folder, data)
                elif name.startswith("tmux-"):
                    check_tmux_pixels(display, name.split("-", 1)[1], folder, data)
                elif name == "marks":
                    check_marks(display, folder)
                elif name.startswith("moves-"):
                    check_moves(display, name.split("-", 1)[1], folder, data)
                elif name == "kitty-elsewhere":
                    check_kitty_elsewhere(display, folder, data)
                elif name == "compare":
                    check_compare(display, folder, data)
                elif name == "loupe-compare":
                    check_compare_loupe(display, folder, data)
                elif name.startswith("loupe-"):
                    check_loupe(display, name.split("-", 1)[1], folder, data)
                elif name == "silent":
                    check_unanswered(folder, None, "a terminal that answers nothing")
                elif name == "garbage":
                    check_unanswered(folder, b"garbage\x1b[?9;x\x1bP>|\x1b]11;\x1b_Gi=31;\xff\xfe", "a terminal that answers garbage")
                else:
                    check_terminal(display, name, folder, data)
            except Failure as failure:
                failed = True
                print(f"not ok {checks + 1} - {failure} (screenshots in {folder})", flush=True)
    if failed:
        print(f"# FAILED; screenshots and logs in {base}")
        return 1
    print(f"# all {checks} graphics checks passed in {time.monotonic() - started:.0f} s; screenshots in {base}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
