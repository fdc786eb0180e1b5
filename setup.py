"""The compiled build of the engine (pyproject.toml holds everything else).

A wheel, or a regular install, compiles the modules canastra_ref/compiled.py
lists with Cython (a build requirement, pyproject.toml), from their unchanged
.py files, which the wheel still carries. An editable install compiles nothing:
a compiled module next to its .py would shadow it, and an edited module would
silently not run. Without Cython or a C compiler, or when a module does not
compile, the build goes on as pure Python and says so in one line;
CANASTRA_PURE_PYTHON=1 skips compiling.
"""
import os
import runpy

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
COMPILED = runpy.run_path(os.path.join(HERE, "canastra_ref", "compiled.py"))["COMPILED"]


def _no_compile_reason(editable: bool) -> str | None:
    if editable:
        return "an editable install runs the .py files"
    if os.environ.get("CANASTRA_PURE_PYTHON") == "1":
        return "CANASTRA_PURE_PYTHON=1"
    try:
        import Cython.Build  # noqa: F401   (with it, setuptools' build_ext is Cython's)
    except ImportError:
        return "Cython is not installed"
    return None


class BuildExt(build_ext):
    """setuptools' build_ext (Cython's, when Cython imports) that compiles all the modules or none, and
    never into a checkout."""

    def initialize_options(self):
        super().initialize_options()
        # Cython's options (Cython.Distutils.build_ext). annotation_typing=False: annotations document,
        # they never change behaviour (Cython would otherwise enforce them, and state.py's
        # `discarded: list[str] = ()` would fail at import). The generated C stays in the build directory.
        self.cython_directives = {"language_level": 3, "annotation_typing": False}
        self.cython_c_in_temp = 1

    def finalize_options(self):
        super().finalize_options()
        self.pure_reason = _no_compile_reason(self.editable_mode)

    def build_extensions(self):
        if self.compiler.compiler_type == "unix":
            # gcc and clang: no debugging information (Python's CFLAGS ask -g), which would make the
            # compiled modules most of the wheel's size
            for ext in self.extensions:
                ext.extra_compile_args.append("-g0")
        super().build_extensions()

    def run(self):
        if not self.pure_reason:
            try:
                super().run()
                return
            except Exception as error:    # no C compiler, or a module that does not compile
                self.pure_reason = f"not compiled: {error}"
        # none compiled, not even one an earlier build left in the build directory (an editable
        # install builds in place: it leaves the checkout's files alone)
        for ext in self.extensions if not self.editable_mode else ():
            built = self.get_ext_fullpath(ext.name)
            if os.path.exists(built):
                os.remove(built)
        self.extensions = []
        print(f"canastra-spec: the engine installs as pure Python ({self.pure_reason})")


setup(ext_modules=[Extension(name, [name.replace(".", "/") + ".py"]) for name in COMPILED],
      cmdclass={"build_ext": BuildExt})
