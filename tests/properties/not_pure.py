"""Names the property tests leave out, each with the reason.

A name is left out when it is not a pure function of arrays (random draws,
creation from shapes, autodiff and jit, control flow over callables, devices,
library identity), or when it is a method of the backend method list whose own
semantics have no numpy function to compare with: those are checked on fixed
cases in ``tests/functions/test_methods_*.py`` and ``test_backend_*.py``.
"""

from __future__ import annotations

_RANDOM = ("random: no deterministic reference (tests/functions/test_random.py; the "
           "distributions' laws checked statistically in test_random_distributions.py)")
_CREATION = "creation from shapes or scalars, no array to draw (tests/functions/test_creation.py)"
_AUTODIFF = "autodiff, jit or a callable argument: no array-in/array-out reference"
_DEVICE = "devices, memory or library identity: not a function of array values"
_META = "dtype or library metadata, not array values"
_LIST = ("a list method with its own layout conventions (batch, channels, sparse formats); "
         "fixed cases in tests/functions/test_backend_*.py and test_methods_*.py")
_NN = ("a neural-network layer op of keras.ops with keras's layout conventions (channels "
       "last, data_format, 'same' padding, (batch, length, heads, depth)): no numpy function; "
       "float64 references written from each op's definition, on every library "
       "(tests/functions/test_nn_ops.py)")
_SOLVER = "iterative solver or operator over callables (tests/functions/test_backend_solvers.py)"

NOT_PURE: dict[str, str] = {}
for _names, _why in [
    ("random.beta random.binomial random.choice random.default_rng random.exponential "
     "random.gamma random.integers random.normal random.permutation random.poisson "
     "random.rand random.randint random.randn random.random random.seed "
     "random.standard_normal random.uniform random_normal random_permutations "
     "random_subsets random_uniform seed "
     "random.bytes random.chisquare random.dirichlet random.f random.geometric "
     "random.gumbel random.hypergeometric random.laplace random.logistic random.lognormal "
     "random.logseries random.multinomial random.multivariate_hypergeometric "
     "random.multivariate_normal "
     "random.negative_binomial random.noncentral_chisquare random.noncentral_f "
     "random.pareto random.permuted random.power random.rayleigh random.standard_cauchy "
     "random.standard_exponential random.standard_gamma random.standard_t "
     "random.triangular random.vonmises random.wald random.weibull random.zipf",
     _RANDOM),
    ("arange empty eye full identity linspace logspace geomspace ones zeros tri range "
     "linspace_without_last fft.fftfreq fft.rfftfreq meshgrid_ij indices complex "
     "as_tensor from_numpy from_dlpack from_external_array_dlpack tril_indices triu_indices "
     "diag_indices mask_indices hamming hanning blackman bartlett kaiser", _CREATION),
    ("custom_gradient gradient hessian jacobian jit_compile jit_compile_grad "
     "jit_compile_hessian stop_gradient_tree while_loop vectorized_call numpy_call call "
     "minimize variable module is_module block_until_ready copy_leaves stack_leaves",
     _AUTODIFF),
    ("cond switch fori_loop scan map associative_scan grad value_and_grad vjp jvp checkpoint",
     _AUTODIFF + " (tests/functions/test_methods_transforms.py: numpy references)"),
    ("elu gelu glu hard_sigmoid hard_silu leaky_relu log_sigmoid log_softmax logdet moments "
     "normalize one_hot relu relu6 rsqrt segment_max segment_sum selu silu softmax softsign "
     "top_k",
     "an ML op with no numpy function of that name: checked against float64 references "
     "written from each op's definition, on every library, in float32 and float64 "
     "(tests/functions/test_ml_ops.py)"),
    ("celu threshold polar view_as_real view_as_complex cholesky_inverse cdist",
     "an ML op of keras.ops with no numpy function of that name: checked against float64 "
     "references written from each op's definition, on every library "
     "(tests/functions/test_ml_ops_linalg_complex.py)"),
    ("hard_tanh hard_shrink soft_shrink tanh_shrink sparse_plus sparse_sigmoid squareplus "
     "sparsemax swish hard_swish segment_min segment_prod in_top_k multi_hot slice "
     "slice_update scatter_update saturate_cast view psnr extract_sequences",
     "an ML op with no numpy function of that name: checked against float64 references "
     "written from each op's definition, on every library "
     "(tests/functions/test_ml_ops_more.py)"),
    ("batch_normalization layer_normalization rms_normalization binary_crossentropy "
     "categorical_crossentropy sparse_categorical_crossentropy max_pool average_pool "
     "adaptive_max_pool adaptive_average_pool dot_product_attention depth_to_space "
     "space_to_depth unfold fold depthwise_conv separable_conv conv_transpose",
     _NN),
    ("allocate_on_device get_default_device get_device get_device_by_ref get_peak_memory "
     "reset_peak_memory list_devices set_default_device to_device is_available "
     "prefers_channels_last requires_fixed_shapes_when_tracing to_dlpack numpy is_tensor",
     _DEVICE),
    ("auto_cast auto_cast1 combine_types complex_type dtype_of float_type get_dtype_name "
     "to_backend_dtype sizeof determine_size is_sparse get_sparse_format", _META),
    ("isdtype issubdtype result_type promote_types can_cast min_scalar_type common_type "
     "mintypecode broadcast_shapes einsum_path iscomplexobj isrealobj isscalar iterable",
     _META + " (numpy's dtype routines, shapes and type tests: "
     "tests/functions/test_dtype_utilities.py)"),
    ("finfo iinfo", _META + " (numpy's finfo and iinfo objects: "
     "tests/functions/test_dtype_info.py)"),
    ("isfortran shares_memory may_share_memory asfortranarray require",
     "memory layout and sharing, not array values (tests/functions/test_dtype_utilities.py)"),
    ("apply_along_axis apply_over_axes piecewise fromfunction",
     _AUTODIFF + " (numpy references on fixed cases: tests/functions/test_dtype_utilities.py)"),
    ("fromiter", _CREATION.replace("test_creation.py", "test_dtype_utilities.py")),
    ("batch_gather batched_bincount batched_gather_1d batched_gather_nd bincount_fixed "
     "boolean_mask gather gather_1d gather_by_component_indices gather_nd histogram1d "
     "indexed_segment_sum multi_slice nonzero_static scatter scatter_1d_scalar scatter_nd "
     "scatter_nd_scalar searchsorted_batched ravel_multi_index_stacked "
     "unravel_index_stacked pad_boundary pad_stack pad_to repeat_n tile_to conv "
     "grid_sample coo_to_dense csc_matrix csc_matrix_batched csr_matrix csr_matrix_batched "
     "csr_to_coo csr_to_dense disassemble mul_coo_dense mul_csr_dense sparse_coo_tensor "
     "sparse_coo_tensor_batched", _LIST),
    ("bi_conjugate_gradient conjugate_gradient conjugate_gradient_adaptive linear "
     "linear_solve matrix_rank_dense matrix_solve_least_squares mul_matrix_batched_vector "
     "solve_triangular solve_triangular_dense solve_triangular_sparse", _SOLVER),
]:
    NOT_PURE.update(dict.fromkeys(_names.split(), _why))
# the test modules' assertions: they return nothing and raise on a mismatch
NOT_PURE.update(
    dict.fromkeys(
        [
            f"testing.{n}"
            for n in (
                "assert_allclose assert_almost_equal assert_approx_equal "
                "assert_array_almost_equal assert_array_almost_equal_nulp assert_array_equal "
                "assert_array_less assert_array_max_ulp assert_close assert_equal "
                "assert_string_equal"
            ).split()
        ],
        "an assertion of a library's test module: no result to compare",
    )
)
