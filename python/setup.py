"""The build of the othello package's library (pyproject.toml holds the rest).

setuptools-rust runs ``cargo rustc --lib --release`` on the crate at the
repository's root, with Cargo.toml's crate types rather than its default
(cdylib alone, which would be another build of the same target in target/,
each replacing the other), and copies the cdylib into the package as
``othello/libothello.abi3.so``. The library uses no Python API: the wheel is
tagged abi3 (cp38-abi3), one wheel for every CPython from 3.8.

``OTHELLO_PREBUILT_LIBRARY=PATH`` ships that libothello.so instead of running
cargo. tests/bindings.rs passes the library cargo built for its own run:
under ``cargo test --workspace`` a cargo build of this package alone is not
fresh (cargo unifies dependency features over the packages it builds, and
tools/ turns on more of syn, which cbindgen, the build script's dependency,
uses), so it would build cbindgen and the library again.
"""

import os
import shutil

from setuptools import setup
from setuptools_rust import Binding, RustExtension
from setuptools_rust.build import build_rust


class build_rust_or_copy(build_rust):
    """build_rust, or a copy of OTHELLO_PREBUILT_LIBRARY where it would put
    the library it builds."""

    def run_for_extension(self, ext: RustExtension) -> None:
        prebuilt = os.environ.get("OTHELLO_PREBUILT_LIBRARY")
        if not prebuilt:
            super().run_for_extension(ext)
            return
        dest = self.get_dylib_ext_path(ext, ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(prebuilt, dest)


setup(
    rust_extensions=[
        RustExtension(
            "othello.libothello",
            path="../Cargo.toml",
            binding=Binding.NoBinding,
            py_limited_api=True,
            args=["--crate-type", "cdylib,staticlib,rlib"],
        )
    ],
    cmdclass={"build_rust": build_rust_or_copy},
    options={"bdist_wheel": {"py_limited_api": "cp38"}},
)
