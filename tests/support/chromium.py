"""A small client of the Chrome DevTools protocol over a pipe, to drive a
headless Chromium from the system's packages in tests.

With ``--remote-debugging-pipe`` Chromium reads the protocol's commands on
its file descriptor 3 and writes its answers and events on descriptor 4,
each message JSON ended by a NUL byte: no port, no WebSocket library and no
browser download are needed.

    with Browser.start() as browser:
        page = browser.open(url)
        page.evaluate("document.title")
        page.press("ArrowRight")
        png = page.screenshot()
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

# Where Debian, Ubuntu and others put it; HAVHEX_CHROMIUM names another.
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

# The keys the tests press: DevTools needs the key's code and its Windows
# virtual key code for the page to see a keydown with that ``key``.
KEYS = {
    "ArrowLeft": 37, "ArrowRight": 39, "ArrowUp": 38, "ArrowDown": 40,
    "Home": 36, "End": 35, "PageUp": 33, "PageDown": 34,
}


def find():
    """The path of a Chromium executable, or None."""
    named = os.environ.get("HAVHEX_CHROMIUM")
    if named:
        return shutil.which(named) or (named if os.access(named, os.X_OK) else None)
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class ProtocolError(Exception):
    pass


def _high_fd(fd):
    """A duplicate of ``fd`` numbered 10 or more, so that placing the pipes
    on 3 and 4 in the child cannot overwrite one with the other."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class Browser:
    """A headless Chromium driven through its DevTools pipe."""

    def __init__(self, process, to_browser, from_browser, profile, timeout):
        self.process = process
        self.to_browser = to_browser
        self.from_browser = from_browser
        self.profile = profile
        self.timeout = timeout
        self.buffer = b""
        self.next_id = 0
        self.events = []

    @classmethod
    def start(cls, executable=None, timeout=60.0, width=1000, height=900):
        executable = executable or find()
        if executable is None:
            raise FileNotFoundError("no Chromium found")
        profile = tempfile.mkdtemp(prefix="havhex-chromium-")
        command_read, command_write = (_high_fd(fd) for fd in os.pipe())
        answer_read, answer_write = (_high_fd(fd) for fd in os.pipe())

        def descriptors():
            # In the child, before it runs Chromium: its end of each pipe on 3 and 4.
            os.dup2(command_read, 3)
            os.dup2(answer_write, 4)

        # The sanitizer build preloads its runtime in every child process;
        # Chromium is no part of what it checks.
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS",
                                                                 "UBSAN_OPTIONS")}
        arguments = [
            executable, "--headless", "--remote-debugging-pipe", f"--user-data-dir={profile}",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu",
            "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--disable-dev-shm-usage", "--mute-audio", f"--window-size={width},{height}",
            "about:blank",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")     # Chromium refuses root otherwise
        process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, env=env, pass_fds=(3, 4),
                                   preexec_fn=descriptors)
        os.close(command_read)
        os.close(answer_write)
        return cls(process, command_write, answer_read, profile, timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.process.poll() is None:
            try:
                self.send("Browser.close", timeout=10)
            except (ProtocolError, OSError, TimeoutError):
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for fd in (self.to_browser, self.from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.process.stderr:
            self.process.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    # ---- the protocol ----------------------------------------------------

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                err = self.process.stderr.read().decode(errors="replace")[-2000:] \
                    if self.process.poll() is not None else ""
                raise ProtocolError(f"Chromium closed its pipe; its last words: {err}")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=None):
        """Send one command and return its result (events that come
        meanwhile are kept in ``events``)."""
        self.next_id += 1
        number = self.next_id
        message = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.to_browser, data):]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == number:
                if "error" in answer:
                    raise ProtocolError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method, session=None, timeout=None):
        """The first event ``method`` (of ``session``), kept or to come."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method and (session is None
                                                      or event.get("sessionId") == session):
                    return self.events.pop(index)
            self.events.append(self._read_message(deadline))

    def open(self, url, width=1000, height=900):
        """A new tab showing ``url``, loaded (a :class:`Page`)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        page.send("Emulation.setFocusEmulationEnabled", {"enabled": True})
        self.events.clear()
        page.send("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired", session)
        return page


class Page:
    """One tab, through its DevTools session."""

    def __init__(self, browser, session):
        self.browser = browser
        self.session = session

    def send(self, method, params=None):
        return self.browser.send(method, params, session=self.session)

    def evaluate(self, expression):
        """The value of a JavaScript expression (JSON-like values)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise ProtocolError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def press(self, key):
        """Press and release a key, as the keyboard would."""
        code = KEYS[key]
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                 "windowsVirtualKeyCode": code,
                                                 "nativeVirtualKeyCode": code})

    def click(self, selector):
        """Click the middle of the element ``selector`` names, with the mouse."""
        box = self.evaluate(f"(function () {{ var r = document.querySelector({json.dumps(selector)})"
                            f".getBoundingClientRect(); return [r.x + r.width / 2,"
                            f" r.y + r.height / 2]; }})()")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def screenshot(self):
        """The page's viewport as PNG bytes."""
        return base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])


def png_pixels(data):
    """(width, height, pixels) of an 8-bit RGB or RGBA PNG, such as
    Chromium's screenshots: ``pixels`` a list of rows, each a list of (r, g, b)."""
    import struct
    import zlib

    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"an 8-bit RGB(A) PNG without interlacing, not {header}")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc
                                      else corner)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows
