"""Lazy graphs written out as straight-line Python, and compiled functions.

In :func:`get_source` every node becomes one line ``x3 = do('sin', x2)``; a
subscript becomes ``x4 = x3[1:, None]``. A :class:`Function` writes a call as
``sin(x2)``, ``sin`` being bound to the function that computes it, and nests a
value used once, by the very next call, into that call:
``x3 = tanh(add(sin(x2), x1))``. Python scalars, strings, slices and tuples of them are
written as literals (their ``repr``, where it reads back exactly); anything else
(arrays of any library, dtypes, numpy scalars, bytes, ``nan``, a complex with a
signed zero) is a named constant injected into the namespace the code runs in.
Only a keyword that is an ASCII Python identifier becomes ``name=`` in the source;
any other goes through ``**{'key': value}``, so no argument can inject code.
"""

from __future__ import annotations

import ast
import functools
import keyword
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from dispatch._do import do
from dispatch.lazy._array import _NODATA, LazyArray
from dispatch.lazy._graph import evaluate, no_gc, roots_of, toposort

_LITERALS = (int, bool, str, type(None))


class _Writer:
    """Formats arguments as Python source, collecting non-literal constants."""

    def __init__(self, consts: dict, prefix: str = "c", callees: dict | None = None):
        self.consts = consts
        self._by_id: dict[int, str] = {}
        self._prefix = prefix
        self._keep: list = []  # keeps formatted objects alive so ids stay unique
        # None: calls are written ``do('name', ...)``; a dict: ``name(...)``, the dict
        # mapping each identifier written to the do name (or callable) it stands for
        self.callees = callees
        self._ident: dict = {}

    def const(self, value: Any) -> str:
        name = self._by_id.get(id(value))
        if name is None:
            name = f"{self._prefix}{len(self._by_id)}"
            self._by_id[id(value)] = name
            self._keep.append(value)
            self.consts[name] = value
        return name

    def fmt(self, a: Any, names: dict) -> str:
        t = type(a)
        if t is LazyArray:
            return names[a]
        if t is int and not -_BIG < a < _BIG:
            return self.const(a)  # str() of a huge int raises (sys.set_int_max_str_digits)
        if t in _LITERALS:
            return repr(a)
        if t is float:
            return repr(a) if math.isfinite(a) else self.const(a)
        if t is complex:
            # repr loses signed zeros: (-0+1j) reads back as 0+1j, -1j as -0-1j
            text = repr(a)
            return text if _reads_back(text, a) else self.const(a)
        if t is tuple:
            inner = ", ".join(self.fmt(e, names) for e in a)
            return f"({inner},)" if len(a) == 1 else f"({inner})"
        if t is list:
            return "[" + ", ".join(self.fmt(e, names) for e in a) + "]"
        if t is slice:
            return (f"slice({self.fmt(a.start, names)}, {self.fmt(a.stop, names)}, "
                    f"{self.fmt(a.step, names)})")
        if a is Ellipsis:
            return "..."
        if t is dict and all(type(k) is str for k in a):
            return "{" + ", ".join(f"{k!r}: {self.fmt(v, names)}" for k, v in a.items()) + "}"
        return self.const(a)

    def subscript(self, key: Any, names: dict) -> str:
        items = key if type(key) is tuple else (key,)
        parts = []
        for k in items:
            if type(k) is slice and all(
                b is None or type(b) is int for b in (k.start, k.stop, k.step)
            ):
                s = ("" if k.start is None else str(k.start)) + ":" + (
                    "" if k.stop is None else str(k.stop))
                if k.step is not None:
                    s += f":{k.step}"
                parts.append(s)
            else:
                parts.append(self.fmt(k, names))
        if type(key) is tuple and len(key) == 1:
            return parts[0] + ","
        if type(key) is tuple and not key:
            return "()"
        return ", ".join(parts)

    def line(self, target: str, node: LazyArray, names: dict) -> str:
        return f"{target} = {self.expr(node, names)}"

    def expr(self, node: LazyArray, names: dict) -> str:
        """The call (or subscript) computing ``node``."""
        fn = node._fn
        if fn == "getitem":
            x, key = node._args
            return f"{self.fmt(x, names)}[{self.subscript(key, names)}]"
        fmt = self.fmt
        args = []
        for a in node._args:
            args.append(names[a] if type(a) is LazyArray else fmt(a, names))
        if node._kwargs:
            odd = {}
            for k, v in node._kwargs.items():
                if type(k) is str and k.isascii() and k.isidentifier() and not keyword.iskeyword(k):
                    args.append(f"{k}={self.fmt(v, names)}")
                else:
                    # not a name (or a non-ASCII one, which Python's parser NFKC-normalises:
                    # 'ﬀ' would arrive as 'ff'): never pasted, passed as a constant key
                    odd[k] = v
            if odd:
                args.append("**{" + ", ".join(
                    f"{self.fmt(k, names)}: {self.fmt(v, names)}" for k, v in odd.items()) + "}")
        if self.callees is None:
            return f"do({', '.join([repr(fn), *args])})"
        try:
            ident = self._ident[fn]
        except (KeyError, TypeError):
            ident = self.callee(fn)
        return f"{ident}({', '.join(args)})"

    def callee(self, fn: Any) -> str:
        """The identifier a call of ``fn`` (a do name or a callable) is written with."""
        try:
            key = fn if hash(fn) is not None else None
        except TypeError:  # an unhashable callable
            key = ("id", id(fn))
            self._keep.append(fn)
        ident = self._ident.get(key)
        if ident is None:
            ident = self._ident[key] = _identifier(fn, self.callees)  # type: ignore[arg-type]
            self.callees[ident] = fn  # type: ignore[index]
        return ident


# names the generated code uses for other things: inputs a0, registers x0, constants
# c0, variables v0 (get_source), and the function itself
_RESERVED = re.compile(r"[acvx][0-9]+|do|out|lazy_function")


def _identifier(fn: Any, taken: dict) -> str:
    """A readable identifier for calls of ``fn``: the do name with dots as underscores
    when that is a safe, free ASCII identifier, else ``_f<n>``."""
    if isinstance(fn, str):
        ident = fn.replace(".", "_")
        if (ident.isascii() and ident.isidentifier() and not keyword.iskeyword(ident)
                and not ident.startswith("_") and not _RESERVED.fullmatch(ident)
                and ident not in taken):
            return ident
    return f"_f{len(taken)}"


_BIG = 10**600


def _reads_back(text: str, value: complex) -> bool:
    """Whether the literal ``text`` evaluates to ``value`` bit for bit."""
    try:
        back = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return False
    return type(back) is complex and all(
        x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
        for x, y in ((back.real, value.real), (back.imag, value.imag))
    )


def get_source(lz: Any, params: dict | None = None) -> str:
    """Python source computing the graph(s) ``lz``, one line per node.

    Leaves holding data become names bound in ``params`` (filled in here, along
    with ``do``), so that ``exec(source, params)`` computes every node; the last
    line assigns the output(s) to ``out``. Variables appear as free names
    ``v0, v1, ...`` that must be bound in ``params`` before executing.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.Variable((3,))
    >>> print(lazy.get_source(do("sum", do("sin", x) * 2.0, axis=0)))
    x0 = do('sin', v0)
    x1 = do('multiply', x0, 2.0)
    x2 = do('sum', x1, axis=0)
    out = x2
    """
    params = {} if params is None else params
    roots = roots_of(lz)
    names: dict = {}
    writer = _Writer(params)
    lines: list[str] = []
    n_var = 0
    for n in toposort(roots):
        if n._fn is None:
            if n._data is _NODATA:
                names[n] = f"v{n_var}"
                n_var += 1
            else:
                names[n] = writer.const(n._data)
            continue
        names[n] = f"x{len(lines)}"
        lines.append(writer.line(names[n], n, names))
    params["do"] = do
    if type(lz) is LazyArray:
        lines.append(f"out = {names[lz]}")
    else:
        lines.append("out = " + writer.fmt(_tuplify(lz), names))
    return "\n".join(lines)


def _tuplify(tree: Any) -> Any:
    if isinstance(tree, list):
        return tuple(_tuplify(t) for t in tree)
    return tree


# ---------------------------------------------------------------- Function


class _Ref:
    """Position of an output in the flat tuple the compiled code returns."""

    __slots__ = ("i",)

    def __init__(self, i: int):
        self.i = i

    def __getstate__(self) -> int:
        return self.i

    def __setstate__(self, i: int) -> None:
        self.i = i


def _flatten(tree: Any, out: list) -> Any:
    if type(tree) is LazyArray:
        out.append(tree)
        return _Ref(len(out) - 1)
    if isinstance(tree, dict):
        return {k: _flatten(v, out) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(_flatten(t, out) for t in tree)
    return tree


def _unflatten(spec: Any, flat: Any) -> Any:
    if type(spec) is _Ref:
        return flat[spec.i]
    if isinstance(spec, dict):
        return {k: _unflatten(v, flat) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return type(spec)(_unflatten(s, flat) for s in spec)
    return spec


class Function:
    """A lazy graph compiled into a plain Python function of its inputs.

    The graph from ``inputs`` to ``outputs`` is written out as straight-line
    Python and compiled once: one call per node, ``sin(x0)`` with ``sin`` bound
    to ``do("sin", ...)`` (or, when every input and constant is a numpy array, to
    numpy's own function); a value used once, by the very next call, is nested
    into that call; names are reused once a value is dead, so that intermediates
    are freed. With ``fold_constants`` every node that does not depend on an input
    is computed now and enters the code as a constant. The function is picklable
    (its source, constants and the names of its functions are).

    Parameters
    ----------
    inputs : LazyArray or pytree of LazyArray
        Nodes whose values are the arguments (usually :func:`Variable` s).
    outputs : LazyArray or pytree of LazyArray
    fold_constants : bool, default True

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.Variable((2,))
    >>> c = do("exp", lazy.array(np.zeros(2)))          # depends on no input
    >>> f = lazy.Function(x, x * c + 1.0)
    >>> f.print_source()
    def lazy_function(a0):
        x0 = add(multiply(a0, c0), 1.0)
        return x0
    >>> f.functions
    {'multiply': 'multiply', 'add': 'add'}
    >>> f(np.array([1.0, 2.0]))
    array([2., 3.])
    """

    _call: Callable | None
    _np_call: Callable | None

    __slots__ = ("_backend", "_call", "_callees", "_code", "_consts", "_in_spec", "_n_in",
                 "_np_call", "_numpy_only", "_out_spec", "_source")

    def __init__(self, inputs: Any, outputs: Any, fold_constants: bool = True):
        in_nodes: list = []
        self._in_spec = _flatten(inputs, in_nodes)
        out_nodes: list = []
        self._out_spec = _flatten(outputs, out_nodes)
        self._n_in = len(in_nodes)
        self._backend = _main_backend(in_nodes)
        self._consts: dict = {}
        self._callees: dict = {}
        with no_gc():
            self._source, backends = _write_function(
                in_nodes, out_nodes, fold_constants, self._consts, self._callees,
                type(self._out_spec) is _Ref,
            )
            self._numpy_only = backends <= {"numpy"} and all(
                _is_numpy_constant(v) for v in self._consts.values()
            )
            self._compile()

    def _compile(self) -> None:
        # one compiled code, run in the namespace of the graph's own backend; the
        # other namespace is made on demand
        self._call = self._np_call = None
        # each function of a long graph's source is compiled on its own (see _CHUNK)
        pieces = self._source.split("\n\ndef ")
        self._code = [compile(p if i == 0 else "def " + p, "<dispatch.lazy.Function>", "exec")
                      for i, p in enumerate(pieces)]
        if self._numpy_only:
            try:
                self._numpy_call()
            except Exception:  # a name numpy cannot resolve: every call goes through do
                self._numpy_only = False
        if not self._numpy_only:
            self._generic_call()

    def _make_call(self, functions: dict) -> Callable:
        """The compiled code with its names bound: flat inputs to flat outputs."""
        namespace = {"do": do, **self._consts, **functions}
        for code in self._code:
            exec(code, namespace)
        return namespace["lazy_function"]

    def _generic_call(self) -> Callable:
        """The code with each function name bound to ``do`` (any library's inputs)."""
        if self._call is None:
            self._call = self._make_call({
                ident: functools.partial(do, fn) if isinstance(fn, str) else fn
                for ident, fn in self._callees.items()
            })
        return self._call  # type: ignore[return-value]

    def _numpy_call(self) -> Callable:
        """The code with each function name bound to numpy's implementation: when every
        input and constant is a numpy array, that is what ``do`` would pick anyway."""
        if self._np_call is None:
            from dispatch._resolve import resolve

            self._np_call = self._make_call({
                ident: resolve("numpy", fn) if isinstance(fn, str) else fn
                for ident, fn in self._callees.items()
            })
        return self._np_call

    def __call__(self, *args: Any) -> Any:
        """Call with the input arrays, positionally or as one pytree like ``inputs``."""
        # flat positional inputs, or one pytree shaped like ``inputs``; a lone array
        # for a one-input Function is its input, whatever container held the variable
        if len(args) != self._n_in or (
            len(args) == 1
            and type(self._in_spec) is not _Ref
            and isinstance(args[0], (list, tuple, dict))
        ):
            args = tuple(_flat_values(args[0] if len(args) == 1 else args, self._in_spec))
            if len(args) != self._n_in:
                raise TypeError(f"this Function takes {self._n_in} input arrays, got {len(args)}")
        out = self.flat(*args)
        return out if type(self._out_spec) is _Ref else _unflatten(self._out_spec, out)

    def flat(self, *args: Any) -> Any:
        """Call with flat positional inputs; returns the flat outputs (one value,
        or a tuple when ``outputs`` was not a single array). What compilers trace."""
        if self._numpy_only:
            for a in args:
                if type(a) is not _NDARRAY:
                    break
            else:
                return self._np_call(*args)  # type: ignore[misc]
        return (self._call or self._generic_call())(*args)

    def unflatten(self, flat: Any) -> Any:
        """Outputs in the structure of ``outputs`` from what :meth:`flat` returned."""
        return flat if type(self._out_spec) is _Ref else _unflatten(self._out_spec, flat)

    def get_source(self) -> str:
        """The Python source of the compiled function."""
        return self._source

    @property
    def backend(self) -> str | None:
        """The library of the inputs (the highest priority one), or None."""
        return self._backend

    def print_source(self) -> None:
        """Print the source code of the compiled function."""
        print(self._source)

    @property
    def constants(self) -> dict:
        """The named constants the code refers to."""
        return dict(self._consts)

    @property
    def functions(self) -> dict:
        """The function names of the code: each calls ``do`` with the name it maps to
        (or, for a node made with a callable by :meth:`LazyArray.to`, that callable)."""
        return dict(self._callees)

    def __getstate__(self) -> dict:
        return {
            "source": self._source, "consts": self._consts, "n_in": self._n_in,
            "in_spec": self._in_spec, "out_spec": self._out_spec,
            "numpy_only": self._numpy_only, "backend": self._backend,
            "functions": self._callees,
        }

    def __setstate__(self, state: dict) -> None:
        self._source = state["source"]
        self._consts = state["consts"]
        self._n_in = state["n_in"]
        self._in_spec = state["in_spec"]
        self._out_spec = state["out_spec"]
        self._backend = state["backend"]
        # a Function pickled before functions were named writes do('name', ...): that
        # code runs through do
        self._callees = state.get("functions", {})
        self._numpy_only = state["numpy_only"] and "functions" in state
        self._compile()

    def __repr__(self) -> str:
        n = self._source.count("\n") - 1
        return f"<lazy.Function({self._n_in} inputs, {n} lines, {len(self._consts)} constants)>"

    def jit(self, backend: str | None = None, **options: Any) -> Callable:
        """This function under the library's own compiler
        (see :func:`dispatch.lazy.jit_function`)."""
        from dispatch.lazy._jit import jit_function

        return jit_function(self, backend, **options)


def _main_backend(nodes: list) -> str | None:
    from dispatch.lazy._record import _priority

    best = None
    for n in nodes:
        if best is None or _priority(n._backend) > _priority(best):
            best = n._backend
    return best


_NDARRAY = np.ndarray


def _is_numpy_constant(v: Any) -> bool:
    if isinstance(v, (np.ndarray, np.generic, np.dtype, int, float, complex, bool, str)):
        return True
    return not (hasattr(v, "shape") and hasattr(v, "dtype"))  # not another library's array


def _flat_values(tree: Any, spec: Any) -> list:
    """Leaves of the call argument ``tree`` in the order of the input spec."""
    out: list = []

    def go(t: Any, s: Any) -> None:
        if type(s) is _Ref:
            out.append(t)
        elif isinstance(s, dict):
            for k in s:
                go(t[k], s[k])
        elif isinstance(s, (list, tuple)):
            if not isinstance(t, (list, tuple)) or len(t) != len(s):
                raise TypeError("the call arguments do not match the structure of the inputs")
            for a, b in zip(t, s, strict=False):
                go(a, b)

    go(tree, spec)
    return out


# how deep calls are nested into one statement (a longer run of values used once
# continues in the next statement)
_NEST = 8


def _write_function(inputs: list, outputs: list, fold: bool, consts: dict, callees: dict,
                    single: bool) -> tuple[str, set]:
    """The source of ``lazy_function`` and the backends of its nodes; fills
    ``consts`` and ``callees`` (identifier -> do name) with the names it uses."""
    in_set = set(inputs)
    order = toposort(outputs, stop=in_set)
    # which nodes depend on an input
    dep: set = set(in_set)
    for n in order:
        if n not in dep:
            for d in n._deps:
                if d in dep:
                    dep.add(n)
                    break
    for n in order:
        if n._fn is None and n._data is _NODATA and n not in in_set:
            raise ValueError(f"{n!r} is a Variable that is not among the inputs of the Function")
    writer = _Writer(consts, callees=callees)
    names: dict = {n: f"a{i}" for i, n in enumerate(inputs)}
    if fold:
        frontier = _frontier(order, dep, set(outputs))
        if frontier:
            values = evaluate(frontier)
            for n, v in zip(frontier, values, strict=False):
                names[n] = writer.const(v)
        code_nodes = [n for n in order if n in dep and n not in in_set]
    else:
        code_nodes = [n for n in order if n._fn is not None and n not in in_set]
    for n in order:
        if n not in names and n._fn is None:
            names[n] = writer.const(n._data)
    # liveness: the index of the last node that reads each node, and how many read it
    last: dict = {}
    readers: dict = {}
    for i, n in enumerate(code_nodes):
        for d in n._deps:
            last[d] = i
            readers[d] = readers.get(d, 0) + 1
    out_set = set(outputs)
    registers: dict = {}  # node -> the local name holding its value
    depth: dict = {}  # nested node -> how deep its call is
    stmt_of: list[int] = []  # node index -> the statement that computes it
    written_at: dict = {}  # node -> the statement that writes its local name
    stmts: list[str] = []
    free: list[str] = []
    n_names = 0
    for i, n in enumerate(code_nodes):
        d_n = 1
        for d in n._deps:
            if last[d] == i:
                r = registers.get(d)
                if r is not None and d not in out_set:
                    free.append(r)  # dead once this node is computed
            dd = depth.get(d)
            if dd is not None and dd >= d_n:
                d_n = dd + 1
        expr = writer.expr(n, names)
        stmt_of.append(len(stmts))
        # a value read once, by the very next node, is computed inside that call:
        # the calls still run in the order of the nodes
        if d_n < _NEST and readers.get(n) == 1 and last[n] == i + 1 and n not in out_set:
            user = code_nodes[i + 1]
            count = 0
            for a in user._args:
                if a is n:
                    count += 1
                elif type(a) is tuple or type(a) is list:
                    count += _count(a, n)
            if user._kwargs:
                count += _count(user._kwargs, n)
            if count == 1:
                names[n] = expr
                depth[n] = d_n
                continue
        if free:
            target = free.pop()
        else:
            target = f"x{n_names}"
            n_names += 1
        written_at[n] = len(stmts)
        stmts.append(f"    {target} = {expr}")
        names[n] = registers[n] = target
    backends = {n._backend for n in code_nodes} | {n._backend for n in inputs}
    ret = [names[o] for o in outputs]
    body_ret = ret[0] if single else "(" + ", ".join(ret) + ("," if len(ret) == 1 else "") + ")"
    head = "def lazy_function(" + ", ".join(f"a{i}" for i in range(len(inputs))) + "):"
    if len(stmts) <= _CHUNK:
        return "\n".join([head, *stmts, f"    return {body_ret}"]), backends
    # a long graph: the statement range over which each local value lives, from the
    # statement that writes it (-1: an input) to the last one that reads it
    end = len(stmts)
    spans = []
    for n, name in [*registers.items(), *((n, names[n]) for n in inputs)]:
        first = written_at.get(n, -1)
        read = end if n in out_set else (stmt_of[last[n]] if n in last else first)
        if read > first:
            spans.append((name, first, read))
    return _chunked(head, stmts, spans, body_ret), backends


# statements per compiled function: Python's compiler takes longer per line on a
# longer source (about twice as long at 10,000 lines as at 100), so a long graph is
# written as functions of this many statements, called in turn by ``lazy_function``
_CHUNK = 100


def _chunked(head: str, stmts: list[str], spans: list, body_ret: str) -> str:
    """``lazy_function`` calling parts of ``_CHUNK`` statements each; ``spans`` are
    ``(name, written at, last read at)`` for every local value (statement indices)."""
    n = len(stmts)
    n_parts = (n + _CHUNK - 1) // _CHUNK
    # in: written before the part and read in or after it; out: written in the part and
    # read after it (or returned)
    ins: list[list[str]] = [[] for _ in range(n_parts)]
    outs: list[list[str]] = [[] for _ in range(n_parts)]
    for name, written, read in spans:
        j_w = written // _CHUNK  # -1 for an input
        for j in range(j_w + 1, min(read // _CHUNK, n_parts - 1) + 1):
            ins[j].append(name)
        if j_w >= 0 and read >= min((j_w + 1) * _CHUNK, n):
            outs[j_w].append(name)
    returned = {name for name, _, read in spans if read == n}
    parts = []
    main = [head]
    for j in range(n_parts):
        a = ", ".join(sorted(ins[j], key=_local_order))
        b = ", ".join(sorted(outs[j], key=_local_order))
        parts.append("\n".join([f"def _part{j}({a}):", *stmts[j * _CHUNK:(j + 1) * _CHUNK],
                                f"    return {b or 'None'}"]))
        main.append(f"    {b} = _part{j}({a})" if b else f"    _part{j}({a})")
        # values the parts after this one do not read: freed now, not when overwritten
        later = set(ins[j + 1]) if j + 1 < n_parts else returned
        dead = sorted((v for v in ins[j] if v not in later and v not in outs[j]
                       and v[0] == "x"), key=_local_order)
        if dead:
            main.append(f"    del {', '.join(dead)}")
    main.append(f"    return {body_ret}")
    return "\n\n".join([*parts, "\n".join(main)])


def _local_order(name: str) -> tuple:
    return (name[0], int(name[1:]))


def _count(obj: Any, node: LazyArray) -> int:
    """How many times ``node`` is written out in an argument (as the writer walks it)."""
    if obj is node:
        return 1
    t = type(obj)
    if t is tuple or t is list:
        return sum(_count(o, node) for o in obj)
    if t is dict:
        return sum(_count(k, node) + _count(v, node) for k, v in obj.items())
    if t is slice:
        return _count((obj.start, obj.stop, obj.step), node)
    return 0


def _frontier(order: list, dep: set, outputs: set) -> list:
    """Constant op nodes whose values the code needs: used by a dependent node or
    an output."""
    needed = set()
    for n in order:
        if n in dep:
            for d in n._deps:
                if d not in dep and d._fn is not None:
                    needed.add(d)
    for o in outputs:
        if o not in dep and o._fn is not None:
            needed.add(o)
    return [n for n in order if n in needed]
