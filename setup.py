"""Build hook: ship content/, schemas/ and grammar/ inside the wheel as engine/_data/.

The checkout keeps them at the top level (the project's fixed layout); an
installed `cogwork` finds them under engine/_data (see engine/resources.py).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_DIRS = ("content", "schemas", "grammar")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        root = Path(__file__).parent
        target = Path(self.build_lib) / "engine" / "_data"
        for name in DATA_DIRS:
            dest = target / name
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(root / name, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithData})
