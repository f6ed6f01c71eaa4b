"""tensorflow's derivatives of the backend method list: ``jacobian``, ``gradient``,
``hessian``, ``custom_gradient``, ``stop_gradient``, and trainable variables.

Derivatives use tf.GradientTape, eagerly and inside tf.function. Nested calls nest
tapes, so derivatives of derivatives (``hessian``, ``jacobian`` of ``gradient``) work.
The bare name ``gradient`` of an array is numpy's (finite differences). jax's
transforms: ``grad`` and ``value_and_grad`` on a tape, ``vjp`` on a persistent tape
(``output_gradients``), ``jvp`` on tf.autodiff.ForwardAccumulator, ``checkpoint`` on
tf.recompute_grad.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import tensorflow as tf
from dispatch.translations._adapters import argnums as _argnums
from dispatch.translations._adapters import check_primals, hessian_result, require_callable
from dispatch.translations._adapters import first_output as _first
from dispatch.translations._composed.autodiff import gradient as finite_differences
from dispatch.translations.tensorflow._common import _SPARSE, _TENSOR, _t, _to

from dispatch.engine import unsupported


def _float_type() -> tf.DType:
    """The float dtype of the current precision (float32 when none is set)."""
    from dispatch.engine import get_precision

    return tf.as_dtype(f"float{get_precision() or 32}")


def _diff_args(args: tuple, argnums: tuple[int, ...]) -> list:
    # arguments to differentiate become float tensors (integers and bools: of the current
    # precision); variables stay variables, so that their own gradients are the ones seen
    out = list(args)
    for i in argnums:
        a = out[i]
        if not isinstance(a, _TENSOR):
            a = _t(a)
        if not (a.dtype.is_floating or a.dtype.is_complex):
            a = tf.cast(a, _float_type())
        out[i] = a
    return out


_ZERO = tf.UnconnectedGradients.ZERO


def _dense(g: Any) -> Any:
    # gradients of gathers arrive as tf.IndexedSlices: the list's are dense arrays
    return tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g


def _tape_jacobian(tape: tf.GradientTape, y: Any, xs: list) -> list:
    try:  # vectorized (pfor); ops without a pfor rule fall back to a while loop
        return tape.jacobian(y, xs, unconnected_gradients=_ZERO)
    except (ValueError, TypeError, NotImplementedError, tf.errors.OpError):
        return tape.jacobian(y, xs, unconnected_gradients=_ZERO, experimental_use_pfor=False)


def _jacobian(f: Callable, wrt: Any = (0,), get_output: bool = True,
              is_f_scalar: bool = False) -> Callable:
    """The list's ``jacobian``: a function returning the derivatives of ``f``.

    ``f(*args)`` returns an array, or a tuple/list whose first entry is the array to
    differentiate (the others are auxiliary outputs). The derivative with respect to
    ``args[i]`` for ``i`` in ``wrt`` has shape ``first.shape + args[i].shape``. The
    returned function gives ``(output, grads)`` with ``get_output`` (``output`` as ``f``
    returned it), else ``grads``: a tuple, one entry per index of ``wrt``, or one array
    when ``wrt`` is an int. ``is_f_scalar`` takes one reverse pass (``tape.gradient``,
    which sums a non-scalar output) instead of a Jacobian (``tape.jacobian``).
    """
    argnums, single = _argnums(wrt)

    @functools.wraps(f)
    def jacobian_of_f(*args: Any, **kwargs: Any) -> Any:
        full = _diff_args(args, argnums)
        xs = [full[i] for i in argnums]
        with tf.GradientTape(persistent=not is_f_scalar) as tape:
            for x in xs:
                tape.watch(x)
            out = f(*full, **kwargs)
            y = _t(_first(out))
        if is_f_scalar:
            grads = [_dense(g) for g in tape.gradient(y, xs, unconnected_gradients=_ZERO)]
        else:
            grads = _tape_jacobian(tape, y, xs)
        del tape
        result = grads[0] if single else tuple(grads)
        return (out, result) if get_output else result

    return jacobian_of_f


def _gradient(f: Any, *args: Any, **kwargs: Any) -> Any:
    """The list's ``gradient`` of a scalar function (``jacobian`` with
    ``is_f_scalar=True``); numpy's ``gradient`` (finite differences) of an array."""
    if not callable(f):
        # numpy keeps the bare name for finite differences, which tf has no kernel for:
        # the composed version (translations/_composed/autodiff.py)
        return finite_differences(f, *args, **kwargs)
    return _gradient_of(f, *args, **kwargs)


def _gradient_of(f: Callable, wrt: Any = (0,), get_output: bool = False) -> Callable:
    return _jacobian(f, wrt, get_output, is_f_scalar=True)


def _hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
             get_gradient: bool = True) -> Callable:
    """The list's ``hessian``: per-batch-entry Hessians of ``f``'s first output.

    Axis 0 of every argument is a batch axis, and batch entries are independent; the
    first output of ``f`` is a loss per batch entry (batch,) or its sum. The returned
    function gives the tuple ``(output, gradients, hessians)``, without the output or
    gradients unless asked for. Gradients (of the summed loss) have the arguments'
    shapes; ``hessians[i][j]`` has shape (batch, *args[i].shape[1:],
    *args[j].shape[1:]). With an int ``wrt``: one gradient and one Hessian, no tuples.
    Two nested tapes: the inner one's gradient, summed over the batch, is
    differentiated by the outer one's Jacobian.
    """
    argnums, single = _argnums(wrt)

    @functools.wraps(f)
    def hessian_of_f(*args: Any, **kwargs: Any) -> tuple:
        full = _diff_args(args, argnums)
        xs = [full[i] for i in argnums]
        with tf.GradientTape(persistent=True) as outer:
            for x in xs:
                outer.watch(x)
            with tf.GradientTape() as inner:
                for x in xs:
                    inner.watch(x)
                out = f(*full, **kwargs)
                loss = tf.reduce_sum(_t(_first(out)))
            g = [_dense(gi) for gi in inner.gradient(loss, xs, unconnected_gradients=_ZERO)]
            sums = [tf.reduce_sum(gi, axis=0) for gi in g]
        hess = []
        for si in sums:
            rows = _tape_jacobian(outer, si, xs)  # (*si, batch, *sj) each
            k = si.shape.rank
            hess.append(tuple(
                tf.transpose(r, [k, *range(k), *range(k + 1, r.shape.rank)]) for r in rows))
        del outer
        return hessian_result(out, g, hess, single, get_output, get_gradient)

    return hessian_of_f


def _custom_gradient(f: Callable, gradient: Callable, get_external_cache: Any = None,
                     on_call_skipped: Any = None) -> Callable:
    """The list's ``custom_gradient``: ``f`` with the derivative ``gradient``.

    ``gradient(x, y, dy)`` gets the tuple of inputs, ``f``'s output and its cotangent
    (of the output's structure) and returns one gradient (or None) per input. Built on
    tf.custom_gradient over the tensor arguments (the others are passed through
    unchanged); a ``jit_compile``d caller traces ``f`` like any op, so
    ``get_external_cache``/``on_call_skipped`` (hooks for callers that skip ``f``) are
    accepted and never needed. Variables that ``f`` reads get no gradient.
    """

    @functools.wraps(f)
    def with_custom_gradient(*args: Any) -> Any:
        pos = [i for i, a in enumerate(args) if isinstance(a, _TENSOR)]

        @tf.custom_gradient
        def run(*tensors: Any) -> Any:
            full = list(args)
            for i, t in zip(pos, tensors, strict=True):
                full[i] = t
            y = f(*full)
            several = isinstance(y, (tuple, list))

            def backward(*dy: Any, variables: Any = None) -> Any:
                dx = gradient(tuple(full), y, tuple(dy) if several else dy[0])
                dx = tuple(dx) if isinstance(dx, (tuple, list)) else (dx,)
                grads = [tf.zeros_like(full[i]) if dx[i] is None else _to(dx[i], full[i].dtype)
                         for i in pos]
                if variables:
                    return grads, [tf.zeros_like(v) for v in variables]
                return grads

            return y, backward

        return run(*[tf.convert_to_tensor(args[i]) for i in pos])

    return with_custom_gradient


def _stop_gradient(x: Any) -> Any:
    if isinstance(x, _SPARSE):
        return tf.SparseTensor(x.indices, tf.stop_gradient(x.values), x.dense_shape)
    return tf.stop_gradient(x)


def _stop_gradient_tree(tree: Any) -> Any:
    # tensor leaves only: numpy arrays and Python numbers are constants already
    from dispatch.engine import tree_map

    return tree_map(_stop_gradient, tree, is_leaf=lambda t: isinstance(t, (*_TENSOR, *_SPARSE)))


def _variable(x: Any) -> Any:
    # a trainable tf.Variable of a float dtype (integers: the current precision)
    t = _t(x)
    if not (t.dtype.is_floating or t.dtype.is_complex):
        t = tf.cast(t, _float_type())
    return tf.Variable(t)


def _is_module(obj: Any) -> bool:
    return isinstance(obj, tf.Module)


# ---------------------------------------------------------------- jax's transforms


def _watchable(name: str, x: Any) -> Any:
    # a float or complex tensor (variables stay variables); integers are refused, as
    # jax refuses them (a tape would give them no gradient)
    t = x if isinstance(x, tf.Variable) else _t(x)
    if not (t.dtype.is_floating or t.dtype.is_complex):
        raise TypeError(f"{name} requires float or complex inputs to differentiate, got "
                        f"{t.dtype.name}")
    return t


def _diff_tree(name: str, tree: Any) -> Any:
    return tf.nest.map_structure(lambda x: _watchable(name, x), tree)


def _split_aux(name: str, out: Any, has_aux: bool) -> tuple[Any, Any]:
    if not has_aux:
        return out, None
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(f"{name}: with has_aux=True, fun must return a pair (out, aux), got "
                        f"{type(out).__name__}")
    return out[0], out[1]


def _tape_grad(name: str, fun: Callable, argnums: Any, has_aux: bool) -> Callable:
    """``args -> (value, aux, gradients)`` of a scalar ``fun`` on one GradientTape."""
    idx, single = _argnums(argnums)

    def run(*args: Any, **kwargs: Any) -> tuple:
        full = list(args)
        for i in idx:
            full[i] = _diff_tree(name, full[i])
        xs = [full[i] for i in idx]
        with tf.GradientTape() as tape:
            tape.watch(xs)
            value, aux = _split_aux(name, fun(*full, **kwargs), has_aux)
            value = _t(value)
        if value.shape.rank != 0:
            raise TypeError(f"{name}: fun must return a scalar, got shape "
                            f"{tuple(value.shape)} (use vjp or jacobian for arrays)")
        grads = tf.nest.map_structure(
            _dense, tape.gradient(value, xs, unconnected_gradients=_ZERO))
        return value, aux, grads[0] if single else tuple(grads)

    return run


def _grad(fun: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax.grad on tf.GradientTape: the gradient of a scalar ``fun`` with respect to
    the arguments ``argnums`` (an int: one gradient; a tuple: a tuple of them); with
    ``has_aux`` ``fun`` returns ``(value, aux)`` and the result is ``(gradient, aux)``.

    Examples
    --------
    >>> import tensorflow as tf
    >>> from dispatch import do
    >>> do("grad", lambda x: tf.reduce_sum(x * x), like="tensorflow")(tf.constant([1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>
    """
    require_callable("grad", "fun", fun)
    run = _tape_grad("grad", fun, argnums, has_aux)

    @functools.wraps(fun)
    def grad_of_fun(*args: Any, **kwargs: Any) -> Any:
        _, aux, g = run(*args, **kwargs)
        return (g, aux) if has_aux else g

    return grad_of_fun


def _value_and_grad(fun: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax.value_and_grad on tf.GradientTape: ``(value, gradient)``, with ``has_aux``
    ``((value, aux), gradient)``.

    Examples
    --------
    >>> import tensorflow as tf
    >>> from dispatch import do
    >>> f = do("value_and_grad", lambda x: tf.reduce_sum(x * x), like="tensorflow")
    >>> value, g = f(tf.constant([1.0, 2.0]))
    >>> float(value), g.numpy().tolist()
    (5.0, [2.0, 4.0])
    """
    require_callable("value_and_grad", "fun", fun)
    run = _tape_grad("value_and_grad", fun, argnums, has_aux)

    @functools.wraps(fun)
    def value_and_grad_of_fun(*args: Any, **kwargs: Any) -> tuple:
        value, aux, g = run(*args, **kwargs)
        return ((value, aux), g) if has_aux else (value, g)

    return value_and_grad_of_fun


def _vjp(fun: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """jax.vjp on a persistent tf.GradientTape: ``(fun(*primals), vjp_fn)``;
    ``vjp_fn(cotangent)`` (the output's structure) gives one cotangent per primal (a
    tuple), as often as it is called; with ``has_aux`` ``(out, vjp_fn, aux)``.

    Examples
    --------
    >>> import tensorflow as tf
    >>> from dispatch import do
    >>> out, vjp_fn = do("vjp", tf.sin, tf.constant([0.0, 1.0]))
    >>> [round(float(g), 4) for g in vjp_fn(tf.ones(2))[0]]
    [1.0, 0.5403]
    """
    require_callable("vjp", "fun", fun)
    xs = [_diff_tree("vjp", p) for p in primals]
    tape = tf.GradientTape(persistent=True)
    with tape:
        tape.watch(xs)
        out, aux = _split_aux("vjp", fun(*xs), has_aux)
    flat_out = tf.nest.flatten(out)

    def vjp_fn(cotangent: Any) -> tuple:
        try:
            tf.nest.assert_same_structure(out, cotangent)
        except (ValueError, TypeError):
            raise TypeError("vjp: the cotangent must have the structure of fun's output") \
                from None
        cts = [_to(c, o.dtype) for c, o in zip(tf.nest.flatten(cotangent), flat_out,
                                                strict=True)]
        g = tape.gradient(flat_out, xs, output_gradients=cts, unconnected_gradients=_ZERO)
        return tuple(tf.nest.map_structure(_dense, g))

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def _jvp(fun: Callable, primals: Any, tangents: Any, has_aux: bool = False) -> tuple:
    """jax.jvp on tf.autodiff.ForwardAccumulator: ``(fun(*primals), tangent_out)``,
    the derivative along ``tangents`` (one per primal, cast to the primal's dtype);
    with ``has_aux`` ``(out, tangent_out, aux)``.

    Examples
    --------
    >>> import tensorflow as tf
    >>> from dispatch import do
    >>> out, t = do("jvp", tf.sin, (tf.constant([0.0]),), (tf.constant([2.0]),))
    >>> t.numpy().tolist()
    [2.0]
    """
    require_callable("jvp", "fun", fun)
    check_primals("jvp", primals, tangents)
    xs = [_diff_tree("jvp", p) for p in primals]
    ts = [tf.nest.map_structure(lambda t, x: _to(t, x.dtype), t, x)
          for t, x in zip(tangents, xs, strict=True)]
    with tf.autodiff.ForwardAccumulator(tf.nest.flatten(xs), tf.nest.flatten(ts)) as acc:
        out, aux = _split_aux("jvp", fun(*xs), has_aux)
    tangent_out = tf.nest.map_structure(
        lambda o: acc.jvp(o, unconnected_gradients=_ZERO), out)
    return (out, tangent_out, aux) if has_aux else (out, tangent_out)


def _checkpoint(fun: Callable) -> Callable:
    """jax.checkpoint on tf.recompute_grad: ``fun`` whose intermediates are recomputed
    in the backward pass instead of stored (tensor arguments).

    Examples
    --------
    >>> import tensorflow as tf
    >>> from dispatch import do
    >>> f = do("checkpoint", lambda x: tf.reduce_sum(x * x), like="tensorflow")
    >>> do("grad", f, like="tensorflow")(tf.constant([1.0, 2.0])).numpy().tolist()
    [2.0, 4.0]
    """
    require_callable("checkpoint", "fun", fun)
    return tf.recompute_grad(fun)


TABLE = {
    "grad": _grad,
    "value_and_grad": _value_and_grad,
    "vjp": _vjp,
    "jvp": _jvp,
    "checkpoint": _checkpoint,
    "jacobian": _jacobian,
    "gradient": _gradient,
    "hessian": _hessian,
    "custom_gradient": _custom_gradient,
    "stop_gradient": _stop_gradient,
    "stop_gradient_tree": _stop_gradient_tree,
    # trainable parameters
    "variable": _variable,
    "module": unsupported(
        "tensorflow's modules are keras models, built by keras: use keras directly"
    ),
    "is_module": _is_module,
}
