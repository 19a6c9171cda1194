"""Runs a command in a pseudo-terminal, as a person at a shell would, answering its prompts.

argv[1] is a JSON object: {"argv": [...], "cwd": "...", "env": {...}, "answers": [["prompt text", "typed text"], ...]}.
Each answer is typed, then Enter, once its prompt has appeared after the previous answer's prompt. Prints one JSON
object: {"status": <exit status>, "screen": <everything the terminal showed>}.
"""
import json
import os
import pty
import select
import sys
import time

job = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.chdir(job["cwd"])
    os.execvpe(job["argv"][0], job["argv"], job["env"])

screen = b""
answers = [(prompt.encode(), typed.encode()) for prompt, typed in job["answers"]]
searched_from = 0
deadline = time.monotonic() + 60  # a child that hangs must not hang the test run
while time.monotonic() < deadline:
    ready, _, _ = select.select([fd], [], [], 1)
    if fd in ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child is gone and the terminal closed
            break
        if not chunk:
            break
        screen += chunk
    if answers:
        at = screen.find(answers[0][0], searched_from)
        if at >= 0:
            searched_from = at + len(answers[0][0])
            os.write(fd, answers.pop(0)[1] + b"\r")
else:
    os.kill(pid, 9)
_, status = os.waitpid(pid, 0)
print(json.dumps({"status": os.waitstatus_to_exitcode(status), "screen": screen.decode("utf8", "replace")}))
