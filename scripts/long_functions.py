#!/usr/bin/env python3
"""The shape of canon's code: its longest functions and files, and a check that none is too long.

Functions are counted in the libraries and the CLI (not tests/, bench/ or sample_site/); files in
those and in tests/ and bench/ too. A function's length is the lines of its body, found by a
brace matcher over the source with comments and strings blanked; lambdas and control blocks
count as part of the function they are in.

Usage:
  scripts/long_functions.py [N]   the N longest functions (default 10), longest first
  scripts/long_functions.py --check
      exits 1, naming each, when a function is over 80 lines or a source file over 600
"""
import os
import re
import subprocess
import sys

MAX_FUNCTION_LINES = 80
MAX_FILE_LINES = 600
NOT_LIBRARY = ("tests/", "bench/", "sample_site/")
NOT_SOURCE = ("sample_site/", "build", "pagefind/node_modules/")


def source_files():
    """The repository's .cpp and .h files: git's list, or a walk when this is not a checkout."""
    listed = subprocess.run(["git", "ls-files", "*.cpp", "*.h"], capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout.strip():
        files = listed.stdout.split()
    else:
        files = [os.path.relpath(os.path.join(d, f)) for d, _, names in os.walk(".") for f in names
                 if f.endswith((".cpp", ".h"))]
    return sorted(f for f in files if not f.startswith(NOT_SOURCE) and os.path.exists(f))


def blanked(source):
    """The source with comments, raw strings, strings and characters emptied, lines kept."""
    keep_lines = lambda m: '""' + "\n" * m.group(0).count("\n")
    s = re.sub(r"//[^\n]*", "", source)
    s = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), s, flags=re.S)
    s = re.sub(r'R"(\w*)\((.*?)\)\1"', keep_lines, s, flags=re.S)
    s = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', s)
    return re.sub(r"'(?:[^'\\\n]|\\.)*'", "''", s)


FUNCTION_HEAD = re.compile(r"\)\s*(const|override|noexcept|final|\s)*\s*(->\s*[\w:<>,\s]+)?$")
CONSTRUCTOR_HEAD = re.compile(r"\)\s*:\s*[\w_]+\(.*\)\s*$", re.S)
CONTROL_HEAD = re.compile(r"\b(if|for|while|switch|catch)\s*\((?:[^{};]|;)*\)\s*$")
LAMBDA_HEAD = re.compile(r"\]\s*(\([^{}]*\))?\s*(mutable)?\s*(->\s*[\w:<>,\s]+)?$")


def function_lengths(path):
    """(lines, first line) of each outermost function body in `path`."""
    s = blanked(open(path, encoding="utf-8").read())
    stack, found = [], []
    for i, c in enumerate(s):
        if c == "{":
            head = s[max(0, i - 300):i]
            is_function = (FUNCTION_HEAD.search(head) or CONSTRUCTOR_HEAD.search(head)) and \
                not CONTROL_HEAD.search(head) and not LAMBDA_HEAD.search(head)
            in_function = any(opens_function for _, opens_function in stack)
            stack.append((i, bool(is_function) and not in_function))
        elif c == "}" and stack:
            start, opens_function = stack.pop()
            if opens_function:
                first = s.count("\n", 0, start) + 1
                found.append((s.count("\n", 0, i) + 1 - first + 1, first))
    return found


def main(argv):
    files = source_files()
    functions = sorted(((length, path, line) for path in files if not path.startswith(NOT_LIBRARY)
                        for length, line in function_lengths(path)), reverse=True)
    if argv[1:2] != ["--check"]:
        for length, path, line in functions[:int(argv[1]) if len(argv) > 1 else 10]:
            print(f"{length:4d}  {path}:{line}")
        return 0
    too_long = [f"function of {length} lines (> {MAX_FUNCTION_LINES}): {path}:{line}"
                for length, path, line in functions if length > MAX_FUNCTION_LINES]
    for path in files:
        lines = sum(1 for _ in open(path, encoding="utf-8"))
        if lines > MAX_FILE_LINES:
            too_long.append(f"file of {lines} lines (> {MAX_FILE_LINES}): {path}")
    for message in too_long:
        print(message)
    print(f"{len(functions)} functions in {len(files)} files; {len(too_long)} too long")
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
