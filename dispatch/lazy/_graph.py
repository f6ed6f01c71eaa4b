"""Traversal and computation of lazy graphs, and statistics about them.

Everything here is iterative: a chain of a million nodes needs no recursion.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import operator
from collections.abc import Callable, Iterator
from typing import Any

from dispatch._do import _annotate, do
from dispatch._registry import CALLS1 as _CALLS1
from dispatch._registry import CALLS2 as _CALLS2
from dispatch._tree import tree_flatten, tree_map
from dispatch.lazy._array import _NODATA, LazyArray, fn_name


def _is_lazy(x: Any) -> bool:
    return type(x) is LazyArray


def roots_of(tree: Any) -> list[LazyArray]:
    if type(tree) is LazyArray:
        return [tree]
    return [x for x in tree_flatten(tree, is_leaf=_is_lazy) if type(x) is LazyArray]


def toposort(
    roots: list[LazyArray],
    pending_only: bool = False,
    stop: set | frozenset = frozenset(),
) -> list[LazyArray]:
    """Unique nodes, every node after its dependencies, deepest branches first.

    ``pending_only`` skips computed nodes and leaves; nodes in ``stop`` are
    treated as leaves (their dependencies are not visited).
    """
    seen: set = set()
    add = seen.add
    order: list = []
    append = order.append
    for root in roots:
        if root in seen or (pending_only and root._fn is None):
            continue
        add(root)
        stack = [(root, _dep_iter(root, stop))]
        push = stack.append
        pop = stack.pop
        while stack:
            node, it = stack[-1]
            for d in it:
                if d in seen or (pending_only and d._fn is None):
                    continue
                add(d)
                push((d, _dep_iter(d, stop)))
                break
            else:
                pop()
                append(node)
    return order


def _dep_iter(node: LazyArray, stop: set | frozenset) -> Iterator[LazyArray]:
    deps = node._deps
    if not deps or node in stop:
        return iter(())
    if len(deps) == 1:
        return iter(deps)
    # deepest first keeps fewer intermediates alive
    if len(deps) == 2:
        a, b = deps
        return iter(deps) if a._depth >= b._depth else iter((b, a))
    return iter(sorted(deps, key=_depth, reverse=True))


_depth = operator.attrgetter("_depth")


def ascend(lz: Any) -> Iterator[LazyArray]:
    """Yield every unique node of the graph(s) ``lz``, each after its
    dependencies (a topological order, deepest branches first).

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.array(np.ones(2))
    >>> [n.fn_name for n in lazy.ascend(do("exp", do("sin", x)))]
    [None, 'sin', 'exp']
    """
    yield from toposort(roots_of(lz))


def descend(lz: Any) -> Iterator[LazyArray]:
    """Yield every unique node of the graph(s) ``lz``, from the outputs down.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.array(np.ones(2))
    >>> [n.fn_name for n in lazy.descend(do("exp", do("sin", x)))]
    ['exp', 'sin', None]
    """
    seen: set = set()
    stack = list(reversed(roots_of(lz)))
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        yield node
        stack.extend(reversed(node._deps))


# ---------------------------------------------------------------- computing


def node_function(name: Any) -> Callable:
    """The callable that computes a node named ``name`` from concrete arguments
    (a node made with a callable, by :meth:`LazyArray.to`, computes with it)."""
    if name == "getitem":
        return operator.getitem
    if not isinstance(name, str):
        return name

    def call(*args: Any, **kwargs: Any) -> Any:
        return do(name, *args, **kwargs)

    call.__name__ = name
    return call


def _values(obj: Any) -> Any:
    """Concrete values of a node's argument (nested lists and tuples included)."""
    t = type(obj)
    if t is LazyArray:
        v = obj._data
        if v is _NODATA:
            raise _missing(obj)
        return v
    if t is tuple or t is list:
        return t(_values(o) for o in obj)
    return obj


def _missing(node: LazyArray) -> Exception:
    if node._fn is None:
        return ValueError(
            f"{node!r} is a Variable without data: it can only be an input of a "
            "lazy.Function, not computed"
        )
    return RuntimeError(f"{node!r} was not computed before use")


def compute(lz: Any) -> Any:
    """Compute the lazy array(s) ``lz`` and return their values.

    Runs every pending node once, each after its dependencies, with an explicit
    stack (no recursion). Each computed node keeps its value and drops its
    function, arguments and dependencies, so intermediates nobody else holds
    are freed as soon as the nodes that use them are computed.

    Parameters
    ----------
    lz : LazyArray or pytree of LazyArray

    Returns
    -------
    The value(s), in the structure of ``lz``.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.array(np.array([0.0, np.pi / 2]))
    >>> lazy.compute(do("round", do("sin", x)))
    array([0., 1.])
    """
    roots = roots_of(lz)
    with no_gc():
        for root in roots:
            if root._fn is not None:
                _run(root)
    if type(lz) is LazyArray:
        return _values(lz)
    return tree_map(_values, lz, is_leaf=_is_lazy)


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: walking a large graph allocates many
    small objects, and each automatic collection would rescan the whole graph."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _run(root: LazyArray) -> None:
    """Depth-first: a node is computed once none of its dependencies is pending.

    The stack is the path from the root to the current node, so a node is never
    on it twice (the graph has no cycles) and no visited set is needed: a node is
    pending exactly while its ``_fn`` is set.

    A call without keywords takes the callable ``do`` would take straight from
    ``do``'s own cache of one- and two-argument calls (the same dictionaries, so
    the same callable); any other call, or a miss, goes through ``do``.
    """
    nodata = _NODATA
    lazy = LazyArray
    calls1 = _CALLS1
    calls2 = _CALLS2
    stack = [root]
    push = stack.append
    pop = stack.pop
    while stack:
        node = stack[-1]
        for d in node._deps:
            if d._fn is not None:
                push(d)
                break
        else:
            pop()
            name = node._fn
            if name is None:
                continue
            vals = []
            for a in node._args:
                t = type(a)
                if t is lazy:
                    v = a._data
                    if v is nodata:
                        raise _missing(a)
                    vals.append(v)
                elif t is tuple or t is list:
                    vals.append(_values(a))
                else:
                    vals.append(a)
            kw = node._kwargs
            fn = None
            try:
                if kw is None and name != "getitem":
                    try:
                        n = len(vals)
                        if n == 1:
                            fn = calls1[name][type(vals[0])]
                        elif n == 2:
                            fn = calls2[name][type(vals[0])][type(vals[1])]
                    except (KeyError, TypeError):
                        pass
                if fn is not None:
                    data = fn(*vals)
                elif name == "getitem":
                    data = vals[0][vals[1]]
                elif not isinstance(name, str):  # a callable given to LazyArray.to
                    data = name(*vals, **{k: _values(v) for k, v in (kw or {}).items()})
                elif kw:
                    data = do(name, *vals, **{k: _values(v) for k, v in kw.items()})
                else:
                    data = do(name, *vals)
            except Exception as err:
                if fn is not None:
                    _annotate(err, name, tuple(vals), {}, None)  # what do would have noted
                if hasattr(err, "add_note"):
                    err.add_note(f"(while computing the lazy node {node!r})")
                raise
            node._data = data
            node._fn = None
            node._args = ()
            node._kwargs = None
            node._deps = ()


def evaluate(tree: Any, known: dict | None = None, stop: frozenset = frozenset()) -> Any:
    """Values of the lazy arrays in ``tree`` without changing the graph.

    ``known`` maps nodes to values that are used instead of computing them
    (the inputs of a :class:`Function`). Intermediates are released once used.
    """
    roots = roots_of(tree)
    known = dict(known or {})
    order = toposort(roots, stop=frozenset(known) | stop)
    uses: dict = collections.Counter()
    for n in order:
        for d in n._deps:
            uses[d] += 1
    keep = set(roots)
    vals: dict = {}

    def get(a: Any) -> Any:
        t = type(a)
        if t is LazyArray:
            if a in vals:
                return vals[a]
            if a in known:
                return known[a]
            if a._data is not _NODATA:
                return a._data
            raise _missing(a)
        if t is tuple or t is list:
            return t(get(o) for o in a)
        return a

    for n in order:
        if n in known:
            vals[n] = known[n]
            continue
        if n._fn is None:
            if n._data is _NODATA:
                raise _missing(n)
            vals[n] = n._data
            continue
        args = [get(a) for a in n._args]
        kw = {k: get(v) for k, v in (n._kwargs or {}).items()}
        vals[n] = node_function(n._fn)(*args, **kw)
        for d in n._deps:
            uses[d] -= 1
            if not uses[d] and d not in keep:
                vals.pop(d, None)
    return tree_map(get, tree, is_leaf=_is_lazy) if type(tree) is not LazyArray else get(tree)


# ---------------------------------------------------------------- statistics


def _size(node: LazyArray) -> int:
    s = node._shape
    if s is None:
        return 0
    n = 1
    for d in s:
        n *= d
    return n


def history_num_nodes(lz: Any) -> int:
    """Number of unique nodes in the graph of ``lz`` (leaves included)."""
    return len(toposort(roots_of(lz)))


def history_max_size(lz: Any) -> int:
    """Size (number of elements) of the largest array in the graph."""
    return max((_size(n) for n in toposort(roots_of(lz))), default=0)


def history_total_size(lz: Any) -> int:
    """Total number of elements over every unique array in the graph."""
    return sum(_size(n) for n in toposort(roots_of(lz)))


def history_size_footprint(lz: Any, include_inputs: bool = True) -> list[int]:
    """Elements alive after each computation step, assuming each intermediate is
    freed as soon as its last user is computed.

    With ``include_inputs`` the leaves are all alive at the start and are freed
    after their last use like intermediates.
    """
    roots = roots_of(lz)
    order = toposort(roots)
    uses: dict = collections.Counter()
    for n in order:
        for d in n._deps:
            uses[d] += 1
    keep = set(roots)
    live = sum(_size(n) for n in order if not n._deps) if include_inputs else 0
    out = []
    for n in order:
        if not n._deps:
            continue
        live += _size(n)
        out.append(live)
        for d in n._deps:
            uses[d] -= 1
            if not uses[d] and d not in keep and (d._deps or include_inputs):
                live -= _size(d)
    return out


def history_peak_size(lz: Any, include_inputs: bool = True) -> int:
    """Largest number of elements alive at once (see history_size_footprint)."""
    return max(history_size_footprint(lz, include_inputs), default=0)


def history_fn_frequencies(lz: Any) -> dict[str, int]:
    """How many nodes each function name has (leaves count under ``'None'``).

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.array(np.ones(2))
    >>> lazy.history_fn_frequencies(do("sin", x) + do("sin", x))
    {'None': 1, 'sin': 2, 'add': 1}
    """
    return dict(collections.Counter(str(fn_name(n._fn)) for n in toposort(roots_of(lz))))


def history_stats(lz: Any, fn: Any = "count") -> dict[str, int]:
    """Aggregate a statistic of each node by function name.

    ``fn`` is ``'count'``, ``'sizein'`` (elements of the inputs of each node),
    ``'sizeout'`` (elements of each output), or a callable ``node -> number``.
    """
    if fn == "count":
        f: Callable = lambda n: 1
    elif fn == "sizein":
        f = lambda n: sum(_size(d) for d in n._deps)
    elif fn == "sizeout":
        f = _size
    elif callable(fn):
        f = fn
    else:
        raise ValueError(f"history_stats: unknown statistic {fn!r}")
    out: dict = collections.defaultdict(int)
    for n in toposort(roots_of(lz)):
        out[str(fn_name(n._fn))] += f(n)
    return dict(out)


# ---------------------------------------------------------------- display


def label(node: LazyArray) -> str:
    shape = "" if node._shape is None else "[" + ", ".join(map(str, node._shape)) + "]"
    if node._fn is None:
        return ("var" if node._data is _NODATA else "leaf") + shape
    return f"{fn_name(node._fn)}{shape}"


def show(lz: Any, filler: str = " ", max_lines: int | None = None,
         max_depth: int | None = None) -> None:
    """Print the graph as a tree; a node met again is shown once, then referenced.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.array(np.ones(2))
    >>> lazy.show(do("add", do("sin", x), x))
       0 add[2]
       1 ├─sin[2]
       2 │ └─leaf[2]
       3 └─... leaf[2] (line 2)
    """
    print(format_tree(lz, filler, max_lines, max_depth))


def format_tree(lz: Any, filler: str = " ", max_lines: int | None = None,
                max_depth: int | None = None) -> str:
    lines: list[str] = []
    seen: dict = {}
    stack: list[tuple[LazyArray, str, str, int]] = [
        (r, "", "", 0) for r in reversed(roots_of(lz))
    ]
    while stack:
        if max_lines is not None and len(lines) >= max_lines:
            lines.append("...")
            break
        node, head, pad, depth = stack.pop()
        if node in seen:
            lines.append(f"{len(lines):>4} {head}... {label(node)} (line {seen[node]})")
            continue
        seen[node] = len(lines)
        lines.append(f"{len(lines):>4} {head}{label(node)}")
        deps = node._deps
        if max_depth is not None and depth >= max_depth and deps:
            lines.append(f"{len(lines):>4} {pad}└─...")
            continue
        for i in reversed(range(len(deps))):
            last = i == len(deps) - 1
            stack.append((deps[i], pad + ("└─" if last else "├─"),
                          pad + (filler * 2 if last else "│" + filler), depth + 1))
    return "\n".join(lines)


def to_nx_digraph(lz: Any, variables: Any = None) -> Any:
    """The graph as a ``networkx.DiGraph`` with edges from dependency to user.

    Nodes are numbered in topological order and carry the attributes ``fn``,
    ``shape``, ``dtype``, ``size``, ``variable`` (a placeholder or one of
    ``variables``), ``constant`` (a leaf holding data) and ``node`` (the
    :class:`LazyArray` itself).
    """
    import networkx as nx

    var = set(roots_of(variables)) if variables is not None else set()
    order = toposort(roots_of(lz))
    index = {n: i for i, n in enumerate(order)}
    g = nx.DiGraph()
    for n, i in index.items():
        g.add_node(
            i, fn=str(fn_name(n._fn)), shape=n._shape, dtype=n._dtype, size=_size(n),
            variable=n in var or (n._fn is None and n._data is _NODATA),
            constant=n._fn is None and n._data is not _NODATA and n not in var,
            node=n, label=label(n),
        )
        for d in n._deps:
            g.add_edge(index[d], i)
    return g
