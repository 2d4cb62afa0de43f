"""Drives a program in a pseudo-terminal for the chat tests (Python standard library `pty`).

Usage: python3 pty-driver.py STEPS_JSON -- PROGRAM ARGS...
STEPS_JSON is a list of steps, each {"expect": text} (wait until the output since the last
step holds the text, STEP_WAIT_S at most) or {"send": text} (written as typed; "\\u0003" is
Ctrl-C, "\\u0004" Ctrl-D). Prints the whole transcript on stdout, then a last line `EXIT <code>`.
Exit code 3 when an expected text never came.

STEP_WAIT_S only ends a session that hangs: a step ends as soon as its text arrives (or the program
exits), and on a loaded machine a program may take a long time to start or answer. The tests that
run this driver kill it after test/helpers/patience.ts CHILD_TIMEOUT_MS.
"""
import json
import os
import pty
import select
import sys
import time

STEP_WAIT_S = 120

steps = json.loads(sys.argv[1])
argv = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)

transcript = b""
mark = 0


def pump(timeout):
    global transcript
    r, _, _ = select.select([fd], [], [], timeout)
    if not r:
        return True
    try:
        data = os.read(fd, 65536)
    except OSError:
        return False
    if not data:
        return False
    transcript += data
    return True


failed = None
for step in steps:
    if "send" in step:
        for ch in step["send"]:
            os.write(fd, ch.encode())
            time.sleep(0.01)
        continue
    want = step["expect"].encode()
    deadline = time.time() + STEP_WAIT_S
    while want not in transcript[mark:]:
        if time.time() > deadline or not pump(0.2):
            failed = step["expect"]
            break
    if failed is not None:
        break
    mark = transcript.index(want, mark) + len(want)

# Read until the program closes the terminal (it exited), STEP_WAIT_S at most.
deadline = time.time() + STEP_WAIT_S
while time.time() < deadline and pump(0.2):
    pass
wpid, status = os.waitpid(pid, os.WNOHANG)
if wpid == 0:
    os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
sys.stdout.write(transcript.decode("utf-8", "replace"))
sys.stdout.write(f"\nEXIT {os.waitstatus_to_exitcode(status)}\n")
if failed is not None:
    sys.stdout.write(f"MISSING {failed!r}\n")
    sys.exit(3)
