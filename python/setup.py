"""The build of the othello package's native module (pyproject.toml holds
the rest).

setuptools-rust builds the crate of python/Cargo.toml (a member of the
repository's workspace) with pyo3 into ``othello/_native.abi3.so``: the
whole library as a CPython extension on the stable ABI, so one wheel
(cp39-abi3) serves every CPython from 3.9.
"""

from setuptools import setup
from setuptools_rust import Binding, RustExtension

setup(
    rust_extensions=[
        RustExtension(
            "othello._native",
            path="Cargo.toml",
            binding=Binding.PyO3,
            py_limited_api=True,
        )
    ],
    options={"bdist_wheel": {"py_limited_api": "cp39"}},
)
