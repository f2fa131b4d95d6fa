"""The requirements NAME==VERSION among the arguments that the running Python's environment lacks, one a line.

Run with a virtual environment's python (scripts/setup.sh, scripts/cuda-toolkit.sh): what it prints is what pip
still has to install there.
"""
import importlib.metadata as metadata
import sys

for requirement in sys.argv[1:]:
    name, version = requirement.split("==")
    try:
        present = metadata.version(name) == version
    except metadata.PackageNotFoundError:
        present = False
    if not present:
        print(requirement)
