#!/usr/bin/python3
"""A generated mock-server's samples pass the corpus checker against their contract.

usage: mock_samples_check.py MOCK_SERVER WSDL CHECKER WORKDIR

Runs `MOCK_SERVER --samples WORKDIR/samples`, then `CHECKER check WSDL --samples ...`
(../shared/wsdl-corpus/check/wsdl_corpus_check.py: the envelope, body, required header and
schema rules). Exit status: the checker's, 1 when mock-server fails.
"""
import os
import shutil
import subprocess
import sys


def main():
    mock, wsdl, checker, work = sys.argv[1:5]
    samples = os.path.join(work, "samples")
    shutil.rmtree(samples, ignore_errors=True)
    if subprocess.run([mock, "--samples", samples]).returncode != 0:
        print("mock-server --samples failed")
        return 1
    return subprocess.run([sys.executable, checker, "check", wsdl, "--samples", samples]).returncode


if __name__ == "__main__":
    sys.exit(main())
