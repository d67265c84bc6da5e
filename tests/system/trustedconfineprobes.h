// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Python probes of tst_trustedconfine (a header of their own: moc does not read
// raw string literals).
#pragma once

/// Each dangerous call once, in a single-threaded python3 (unshare needs one thread),
/// printed as {"call": "ok" | "EPERM" | …}. ptrace attaches to a child of its own (which
/// Yama and Landlock allow), so only the filter can refuse it.
constexpr const char *SurfaceProbe = R"PY(import ctypes, errno, json, platform, subprocess, sys
sys.stdin.readline()  # a command tool's arguments
NR = {"x86_64": {"ptrace": 101, "mount": 165, "unshare": 272, "bpf": 321, "keyctl": 250, "io_uring_setup": 425,
                 "userfaultfd": 323, "personality": 135, "perf_event_open": 298},
      "aarch64": {"ptrace": 117, "mount": 40, "unshare": 97, "bpf": 280, "keyctl": 219, "io_uring_setup": 425,
                  "userfaultfd": 282, "personality": 92, "perf_event_open": 241}}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(name, *args):
    ctypes.set_errno(0)
    values = [ctypes.c_char_p(a) if isinstance(a, bytes) else a if not isinstance(a, int) else ctypes.c_long(a)
              for a in args]
    if libc.syscall(ctypes.c_long(NR[name]), *values) == -1:
        return errno.errorcode[ctypes.get_errno()]
    return "ok"
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
buffer = ctypes.create_string_buffer(256)
out = {
    "ptrace": call("ptrace", 16, child.pid, 0, 0),
    "mount": call("mount", b"none", b"/tmp", b"tmpfs", 0, 0),
    "unshare": call("unshare", 0x10000000),
    "bpf": call("bpf", 0, buffer, 64),
    "keyctl": call("keyctl", 0, -3, 0),
    "io_uring_setup": call("io_uring_setup", 1, buffer),
    "userfaultfd": call("userfaultfd", 1 | 0o2000000),
    "personality": call("personality", 0x0040000),
    "perf_event_open": call("perf_event_open", buffer, 0, -1, -1, 0),
}
child.kill()
child.wait()
print(json.dumps(out))
)PY";

/// Network probes: an HTTP GET (requests when installed, else urllib), a TCP connect,
/// a UDP socket, an AF_UNIX socket pair, each "ok" or "Type: [Errno N] text".
constexpr const char *NetworkTool = R"PY(import json, os, socket, subprocess, sys

def attempt(action):
    try:
        return action()
    except Exception as e:
        # requests and urllib wrap the socket's OSError: report the innermost one.
        inner = e
        while isinstance(inner, Exception) and getattr(inner, "errno", None) is None:
            inner = inner.__cause__ or inner.__context__
        inner = inner or e
        return f"{type(inner).__name__}: [Errno {getattr(inner, 'errno', None)}] {getattr(inner, 'strerror', inner)}"

def http_get(url):
    try:
        import requests
    except ImportError:
        import urllib.request
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.read().decode()
    return requests.get(url, timeout=10).text

def tcp(port):
    with socket.create_connection(("127.0.0.1", port), timeout=10):
        return "ok"

def udp():
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()
    return "ok"

def unix_pair():
    a, b = socket.socketpair()
    a.close()
    b.close()
    return "ok"

class Tools:
    def fetch(self, port: int) -> dict:
        """An HTTP GET and a TCP connect to 127.0.0.1:port."""
        return {"http": attempt(lambda: http_get(f"http://127.0.0.1:{port}/ping")), "tcp": attempt(lambda: tcp(port)),
                "udp": attempt(udp), "unix": attempt(unix_pair)}

    def surface(self) -> dict:
        """The kernel surface probe, in a python3 of its own."""
        done = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "..", "bin", "surface.py")],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        return json.loads(done.stdout) if done.returncode == 0 else {"failed": done.stderr}
)PY";
