"""torch: the numpy vocabulary on ``torch.Tensor``, with numpy semantics.

Where torch's own function already has numpy's signature and behaviour the
table names it directly (``"sum"``, ``"add"``, ``"matmul"``...), so that ``do``
calls it with no wrapper in between. The adapters exist only where torch
differs; each says why in one line. Creation functions from a shape (``zeros``,
``arange``, ``linspace``, ``random.*``...) use torch's default float dtype
(float32 unless changed with ``torch.set_default_dtype``) when no dtype is given,
as torch users expect; data keeps numpy's reading (``asarray([0.1])`` is float64).
Every adapter accepts numpy-style dtype names (``"float32"``), numpy dtypes and
torch dtypes. Arithmetic that stays native (``add``, ``divide``...) follows
torch's type promotion: ``int64 tensor + 1.5`` is float32, where numpy gives
float64.

The table also holds torch's entries for the backend method list (``scatter``,
``conv``, ``grid_sample``, ``jacobian``, ``jit_compile``, ``while_loop``, sparse
constructors, devices...), with the layouts and semantics of the composed
fallbacks in ``translations/_composed/``: torch's native kernels where the
composed versions would be slow (flat 1-D scatters, ``bincount_fixed``, grouped
convolutions, ``grid_sample``, conjugate gradients on plain matrices), torch.func
and torch.autograd for derivatives, torch.jit.trace for ``jit_compile`` (see the
notes in :mod:`.control`).

Each entry sits beside its adapter in one topic module, named like the composed
ones: :mod:`.creation`, :mod:`.elementwise`, :mod:`.reductions`,
:mod:`.statistics`, :mod:`.shape`, :mod:`.indexing`, :mod:`.linalg`,
:mod:`.solvers`, :mod:`.fft`, :mod:`.signal`, :mod:`.random`, :mod:`.special`,
:mod:`.sparse`, :mod:`.autodiff`, :mod:`.control`, :mod:`.devices`,
:mod:`.dtypes` (memory layout and sharing) and :mod:`.nn` (keras's layer ops);
helpers several of them use (dtype names, scalars, axes) are in ``_common``. This
module keeps what the engine reads about the library as a whole (``TYPES``, what a
name may reach, ``creation_kwargs``) and gathers the topics' entries into ``TABLE``.
"""

from __future__ import annotations

from typing import Any

import torch
from dispatch.translations import _safety
from dispatch.translations._adapters import merge_topics
from dispatch.translations.torch import (
    autodiff,
    control,
    creation,
    devices,
    dtypes,
    elementwise,
    fft,
    indexing,
    linalg,
    nn,
    random,
    reductions,
    shape,
    signal,
    solvers,
    sparse,
    special,
    statistics,
)
from torch import Tensor

TYPES = ("torch",)
# what a name may reach (docs/safety.md): torch's array modules, never processes,
# native-code loading, unpickling, downloads, device or global configuration, nor an
# in-place function (torch spells them with a trailing underscore)
SUBMODULES = (
    "torch.linalg", "torch.fft", "torch.special", "torch.nn", "torch.nn.functional",
    "torch.distributions", "torch.sparse", "torch.masked", "torch.nested", "torch.func",
    "torch.autograd", "torch.autograd.functional", "torch.signal", "torch.signal.windows",
    "torch.functional", "torch.utils.dlpack",
)
_DEVICES = "device and backend configuration"
CAPABILITY_MODULES = {
    "torch.utils": "utilities outside array computing: shell commands (collect_env), C++ "
    "extension builds (cpp_extension), data loading",
    "torch.utils.dlpack": None,  # from_dlpack and to_dlpack: array interchange
    "torch.hub": "model downloads",
    "torch.ops": "native operator libraries (ops.load_library loads native code)",
    "torch.classes": "native operator libraries (classes.load_library loads native code)",
    "torch.library": "operator registration (it changes torch's dispatcher for the process)",
    "torch.serialization": "unpickling (do('load', f, like='torch') pins weights_only=True)",
    "torch.package": "packages that unpickle and run code",
    "torch.jit": "TorchScript compilation and loading",
    "torch.export": "program export and loading",
    "torch.onnx": "model export",
    "torch.fx": "graph tracing and code generation",
    "torch.distributed": "processes and networking",
    "torch.multiprocessing": "processes",
    **dict.fromkeys(
        ("torch.cuda", "torch.xpu", "torch.mps", "torch.mtia", "torch.accelerator", "torch.cpu",
         "torch.backends", "torch.amp"),
        _DEVICES,
    ),
    "torch.compiler": "compiler configuration",
    "torch.profiler": "profiling",
    "torch.autograd.profiler": "profiling",
    "torch.autograd.grad_mode": _safety.GLOBAL,
    "torch.autograd.anomaly_mode": _safety.GLOBAL,
    "torch._tensor_str": _safety.GLOBAL,
    "torch.overrides": "the dispatch of torch functions",
    "torch.testing": "test machinery",
    "torch.random": "torch's global random state: use do('random.seed', s, like='torch')",
    "torch.optim": "optimizers (they update their parameters in place)",
    "torch.nn.init": _safety.in_place("create the tensor with do('random.normal', ...)"),
    "torch.nn.utils": "model utilities that update modules and gradients in place",
    "torch.ao": "quantization workflows (they rewrite models)",
    "torch.quantization": "quantization workflows (they rewrite models)",
    "torch._utils_internal": "torch's internal helpers",
    "torch._jit_internal": "TorchScript compilation and loading",
    "torch._C._profiler": "profiling",
    "torch.futures": "asynchronous execution",
    "torch.monitor": "runtime monitoring",
}
# every module-level setter of torch changes the whole process
REFUSED = {
    **{f"torch.{n}": _safety.GLOBAL for n in dir(torch) if n.startswith("set_")},
    **dict.fromkeys(
        ("torch.manual_seed", "torch.seed", "torch.use_deterministic_algorithms",
         "torch.autocast_increment_nesting", "torch.autocast_decrement_nesting",
         "torch.clear_autocast_cache", "torch.prepare_multiprocessing_environment"),
        _safety.GLOBAL,
    ),
    **dict.fromkeys(
        ("torch.CompilationUnit", "torch.import_ir_module", "torch.import_ir_module_from_buffer"),
        "TorchScript compilation and loading",
    ),
    **dict.fromkeys(
        ("torch.PyTorchFileReader", "torch.PyTorchFileWriter", "torch.FileCheck"),
        "file access for TorchScript archives",
    ),
    "torch.distributions.register_kl": "registration (" + _safety.GLOBAL + ")",
}
IN_PLACE_SUFFIX = "_"
GUARDED = {"torch.load": {"weights_only": True, "pickle_module": None}}


def creation_kwargs(like: Tensor) -> dict[str, Any]:
    """The dtype and device that creation functions take from an example tensor.

    Parameters
    ----------
    like : torch.Tensor
        The array passed as ``like=`` to a creation function.

    Returns
    -------
    dict
        ``{"dtype": like.dtype, "device": like.device}``.

    Examples
    --------
    >>> creation_kwargs(torch.zeros(2, dtype=torch.float64))
    {'dtype': torch.float64, 'device': device(type='cpu')}
    """
    return {"dtype": like.dtype, "device": like.device}


def _assert_close(actual: Any, expected: Any, **kwargs: Any) -> None:
    """torch.testing.assert_close: raise AssertionError unless the two are close.

    The one function of ``torch.testing`` served (the rest of that module makes test
    data); its keywords (``rtol``, ``atol``, ``equal_nan``, ``check_dtype``...) are
    torch's.

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> do("testing.assert_close", torch.ones(2), torch.ones(2) + 1e-9)
    """
    torch.testing.assert_close(actual, expected, **kwargs)


TABLE = merge_topics(
    creation, elementwise, reductions, statistics, shape, indexing, linalg, solvers, fft, signal,
    random, special, sparse, autodiff, control, devices, dtypes, nn,
) | {"testing.assert_close": _assert_close}  # its array comparison only
