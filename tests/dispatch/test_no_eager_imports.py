"""Importing dispatch, and calling it on numpy arrays, imports no other array library."""

from __future__ import annotations

import json
import subprocess
import sys

LIBRARIES = ["torch", "jax", "jaxlib", "tensorflow", "dask", "sparse", "cupy", "scipy"]

_SCRIPT = """
import json, sys
import numpy as np
import dispatch
after_import = sorted(m for m in {libs} if m in sys.modules)
from dispatch import do
from dispatch import numpy as xp
x = np.arange(6.0).reshape(2, 3)
do("sum", x, axis=0)
do("add", x, 1.0)
do("stack", [x, x])
do("linalg.norm", x)
do("zeros", (2,))
do("zeros", (2,), like="numpy")
do("random.seed", 0, like="numpy")
do("random.normal", size=(2,), like="numpy")
xp.mean(x)
dispatch.infer_backend(x)
dispatch.infer_backend_multi(x, 2.0, [x])
dispatch.shape(x); dispatch.to_numpy(x); dispatch.get_dtype_name(x)
dispatch.supports("sum", "numpy")
dispatch.get_namespace(x).sum(x)
try:
    do("no_such_function", x)
except dispatch.UnknownFunctionError:
    pass
after_calls = sorted(m for m in {libs} if m in sys.modules)
print(json.dumps([after_import, after_calls]))
"""


def _run(script: str) -> list:
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_and_numpy_calls_import_no_other_library():
    after_import, after_calls = _run(_SCRIPT.format(libs=LIBRARIES))
    assert after_import == [], f"import dispatch imported {after_import}"
    assert after_calls == [], f"numpy calls imported {after_calls}"


_FACE_SCRIPT = """
import json, sys
import numpy as np
import dispatch.autoray as ar
after_import = sorted(m for m in {libs} if m in sys.modules)
ar.modules("autoray")  # every submodule autoray ships, imported
x = np.arange(6.0).reshape(2, 3)
ar.do("sum", x, axis=0); ar.do("linalg.svd", x); ar.do("zeros", (2,), like="builtins")
ar.do("random.array", (2,), rng=0); ar.infer_backend(x); ar.get_namespace(x).sum(x)
ar.lazy.Variable((2,)); ar.numpy.ones(2)
after_calls = sorted(m for m in {libs} if m in sys.modules)
print(json.dumps([after_import, after_calls]))
"""


def test_import_autoray_face_and_numpy_calls_import_no_other_library():
    after_import, after_calls = _run(_FACE_SCRIPT.format(libs=LIBRARIES))
    assert after_import == [], f"import dispatch.autoray imported {after_import}"
    assert after_calls == [], f"the face's numpy calls imported {after_calls}"


def test_scipy_names_import_scipy_only():
    script = (
        "import json, sys\nimport numpy as np\nfrom dispatch import do\n"
        "do('scipy.special.erf', np.ones(2))\n"
        f"print(json.dumps([sorted(m for m in {LIBRARIES} if m in sys.modules), []]))"
    )
    loaded, _ = _run(script)
    assert loaded == ["scipy"]


def test_import_translations_package_imports_nothing():
    script = (
        "import json, sys\nimport dispatch.translations, dispatch.translations._vocabulary\n"
        "import dispatch.spec\n"
        f"print(json.dumps([sorted(m for m in {LIBRARIES} if m in sys.modules), []]))"
    )
    loaded, _ = _run(script)
    assert loaded == []
