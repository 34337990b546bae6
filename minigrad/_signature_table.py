"""PyTorch 2.13's Python signatures of the torch.X functions minigrad has (facts about its API).

Written by tools/make_signature_table.py from PyTorch's own listings of its signatures; read
by _python_arg_parser.py. Each is written as PyTorch prints it, with ``?`` after the type
of a parameter that takes None without a default, and ``tuple of ints[1]`` for a tuple of
ints that also takes a single int. Regenerate rather than edit."""

# name -> its signatures, in the order PyTorch tries them
SIGNATURES = {'abs': ('Tensor input, *, Tensor out=None',),
 'abs_': ('Tensor input',),
 'absolute': ('Tensor input, *, Tensor out=None',),
 'acos': ('Tensor input, *, Tensor out=None',),
 'acos_': ('Tensor input',),
 'acosh': ('Tensor input, *, Tensor out=None',),
 'acosh_': ('Tensor input',),
 'adaptive_avg_pool1d': ('Tensor input, tuple of ints[1] output_size',),
 'adaptive_max_pool1d': ('Tensor input, tuple of ints[1] output_size',),
 'add': ('Tensor input, Tensor other, *, Number alpha=1, Tensor out=None',),
 'addbmm': ('Tensor input, Tensor batch1, Tensor batch2, *, Number beta=1, Number alpha=1, Tensor '
            'out=None',),
 'addcdiv': ('Tensor input, Tensor tensor1, Tensor tensor2, *, Number value=1, Tensor out=None',),
 'addcmul': ('Tensor input, Tensor tensor1, Tensor tensor2, *, Number value=1, Tensor out=None',),
 'addmm': ('Tensor input, Tensor mat1, Tensor mat2, *, Number beta=1, Number alpha=1, Tensor '
           'out=None',
           'Tensor input, Tensor mat1, Tensor mat2, torch.dtype out_dtype, *, Number beta=1, '
           'Number alpha=1, Tensor out=None'),
 'addmv': ('Tensor input, Tensor mat, Tensor vec, *, Number beta=1, Number alpha=1, Tensor '
           'out=None',),
 'addmv_': ('Tensor input, Tensor mat, Tensor vec, *, Number beta=1, Number alpha=1',),
 'addr': ('Tensor input, Tensor vec1, Tensor vec2, *, Number beta=1, Number alpha=1, Tensor '
          'out=None',),
 'adjoint': ('Tensor input',),
 'affine_grid_generator': ('Tensor theta, tuple of ints size, bool align_corners',),
 'alias_copy': ('Tensor input, *, Tensor out=None',),
 'all': ('Tensor input, *, Tensor out=None',
         'Tensor input, tuple of ints dim=None, bool keepdim=False, *, Tensor out=None',
         'Tensor input, int dim, bool keepdim=False, *, Tensor out=None'),
 'allclose': ('Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool '
              'equal_nan=False',),
 'alpha_dropout': ('Tensor input, float p, bool train',),
 'alpha_dropout_': ('Tensor input, float p, bool train',),
 'amax': ('Tensor input, tuple of ints[1] dim=(), bool keepdim=False, *, Tensor out=None',),
 'amin': ('Tensor input, tuple of ints[1] dim=(), bool keepdim=False, *, Tensor out=None',),
 'aminmax': ('Tensor input, *, int dim=None, bool keepdim=False, tuple of Tensors out=None',),
 'angle': ('Tensor input, *, Tensor out=None',),
 'any': ('Tensor input, *, Tensor out=None',
         'Tensor input, tuple of ints dim=None, bool keepdim=False, *, Tensor out=None',
         'Tensor input, int dim, bool keepdim=False, *, Tensor out=None'),
 'arange': ('Number end, *, Tensor out=None, torch.dtype dtype=None, torch.layout layout=None, '
            'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
            'Number start, Number end, *, torch.dtype dtype=None, torch.layout layout=None, '
            'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
            'Number start, Number end, Number step=1, *, Tensor out=None, torch.dtype dtype=None, '
            'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
            'requires_grad=False'),
 'arccos': ('Tensor input, *, Tensor out=None',),
 'arccos_': ('Tensor input',),
 'arccosh': ('Tensor input, *, Tensor out=None',),
 'arccosh_': ('Tensor input',),
 'arcsin': ('Tensor input, *, Tensor out=None',),
 'arcsin_': ('Tensor input',),
 'arcsinh': ('Tensor input, *, Tensor out=None',),
 'arcsinh_': ('Tensor input',),
 'arctan': ('Tensor input, *, Tensor out=None',),
 'arctan2': ('Tensor input, Tensor other, *, Tensor out=None',),
 'arctan_': ('Tensor input',),
 'arctanh': ('Tensor input, *, Tensor out=None',),
 'arctanh_': ('Tensor input',),
 'argmax': ('Tensor input, int dim=None, bool keepdim=False, *, Tensor out=None',),
 'argmin': ('Tensor input, int dim=None, bool keepdim=False, *, Tensor out=None',),
 'argsort': ('Tensor input, *, bool stable, int dim=-1, bool descending=False, Tensor out=None',
             'Tensor input, int dim=-1, bool descending=False'),
 'argwhere': ('Tensor input',),
 'as_strided': ('Tensor input, tuple of ints size, tuple of ints stride, int storage_offset=None',),
 'as_strided_': ('Tensor input, tuple of ints size, tuple of ints stride, int '
                 'storage_offset=None',),
 'as_strided_copy': ('Tensor input, tuple of ints size, tuple of ints stride, int '
                     'storage_offset=None, *, Tensor out=None',),
 'as_strided_scatter': ('Tensor input, Tensor src, tuple of ints size, tuple of ints stride, int '
                        'storage_offset=None',),
 'asin': ('Tensor input, *, Tensor out=None',),
 'asin_': ('Tensor input',),
 'asinh': ('Tensor input, *, Tensor out=None',),
 'asinh_': ('Tensor input',),
 'atan': ('Tensor input, *, Tensor out=None',),
 'atan2': ('Tensor input, Tensor other, *, Tensor out=None',),
 'atan_': ('Tensor input',),
 'atanh': ('Tensor input, *, Tensor out=None',),
 'atanh_': ('Tensor input',),
 'avg_pool1d': ('Tensor input, tuple of ints[1] kernel_size, tuple of ints[1] stride=(), tuple of '
                'ints[1] padding=0, bool ceil_mode=False, bool count_include_pad=True',),
 'baddbmm': ('Tensor input, Tensor batch1, Tensor batch2, *, Number beta=1, Number alpha=1, Tensor '
             'out=None',
             'Tensor input, Tensor batch1, Tensor batch2, torch.dtype out_dtype, *, Number beta=1, '
             'Number alpha=1, Tensor out=None'),
 'bartlett_window': ('int window_length, *, torch.dtype dtype=None, torch.layout layout=None, '
                     'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
                     'int window_length, bool periodic, *, torch.dtype dtype=None, torch.layout '
                     'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                     'requires_grad=False'),
 'batch_norm': ('Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? '
                'running_var, bool training, float momentum, float eps, bool cudnn_enabled',),
 'bernoulli': ('Tensor input, *, torch.Generator generator=None, Tensor out=None',
               'Tensor input, float p, *, torch.Generator generator=None'),
 'bilinear': ('Tensor input1, Tensor input2, Tensor weight, Tensor bias=None',),
 'binary_cross_entropy_with_logits': ('Tensor input, Tensor target, Tensor weight=None, Tensor '
                                      'pos_weight=None, int reduction=1',),
 'bincount': ('Tensor input, Tensor weights=None, int minlength=0',),
 'binomial': ('Tensor count, Tensor prob, torch.Generator generator=None',),
 'bitwise_and': ('Tensor input, Tensor other, *, Tensor out=None',
                 'Number self, Tensor other',
                 'Tensor input, Number other, *, Tensor out=None'),
 'bitwise_left_shift': ('Tensor input, Tensor other, *, Tensor out=None',
                        'Number self, Tensor other',
                        'Tensor input, Number other, *, Tensor out=None'),
 'bitwise_not': ('Tensor input, *, Tensor out=None',),
 'bitwise_or': ('Tensor input, Tensor other, *, Tensor out=None',
                'Number self, Tensor other',
                'Tensor input, Number other, *, Tensor out=None'),
 'bitwise_right_shift': ('Tensor input, Tensor other, *, Tensor out=None',
                         'Number self, Tensor other',
                         'Tensor input, Number other, *, Tensor out=None'),
 'bitwise_xor': ('Tensor input, Tensor other, *, Tensor out=None',
                 'Number self, Tensor other',
                 'Tensor input, Number other, *, Tensor out=None'),
 'blackman_window': ('int window_length, *, torch.dtype dtype=None, torch.layout layout=None, '
                     'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
                     'int window_length, bool periodic, *, torch.dtype dtype=None, torch.layout '
                     'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                     'requires_grad=False'),
 'bmm': ('Tensor input, Tensor mat2, *, Tensor out=None',
         'Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out=None'),
 'broadcast_to': ('Tensor input, tuple of ints size',),
 'bucketize': ('Tensor input, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor '
               'out=None',
               'Number self, Tensor boundaries, *, bool out_int32=False, bool right=False'),
 'can_cast': ('torch.dtype from_, torch.dtype to',),
 'cat': ('tuple of Tensors tensors, int dim=0, *, Tensor out=None',),
 'ceil': ('Tensor input, *, Tensor out=None',),
 'ceil_': ('Tensor input',),
 'celu': ('Tensor input, Number alpha=1.0',),
 'celu_': ('Tensor input, Number alpha=1.0',),
 'channel_shuffle': ('Tensor input, int groups',),
 'cholesky': ('Tensor input, bool upper=False, *, Tensor out=None',),
 'cholesky_inverse': ('Tensor input, bool upper=False, *, Tensor out=None',),
 'cholesky_solve': ('Tensor input, Tensor input2, bool upper=False, *, Tensor out=None',),
 'chunk': ('Tensor input, int chunks, int dim=0',),
 'clamp': ('Tensor input, Tensor min=None, Tensor max=None, *, Tensor out=None',
           'Tensor input, Number min=None, Number max=None, *, Tensor out=None'),
 'clamp_': ('Tensor input, Tensor min=None, Tensor max=None',
            'Tensor input, Number min=None, Number max=None'),
 'clamp_max': ('Tensor input, Tensor max, *, Tensor out=None',
               'Tensor input, Number max, *, Tensor out=None'),
 'clamp_max_': ('Tensor input, Tensor max', 'Tensor input, Number max'),
 'clamp_min': ('Tensor input, Tensor min, *, Tensor out=None',
               'Tensor input, Number min, *, Tensor out=None'),
 'clamp_min_': ('Tensor input, Tensor min', 'Tensor input, Number min'),
 'clip': ('Tensor input, Tensor min=None, Tensor max=None, *, Tensor out=None',
          'Tensor input, Number min=None, Number max=None, *, Tensor out=None'),
 'clip_': ('Tensor input, Tensor min=None, Tensor max=None',
           'Tensor input, Number min=None, Number max=None'),
 'clone': ('Tensor input, *, torch.memory_format memory_format=None',),
 'column_stack': ('tuple of Tensors tensors, *, Tensor out=None',),
 'combinations': ('Tensor input, int r=2, bool with_replacement=False',),
 'concat': ('tuple of Tensors tensors, int dim=0, *, Tensor out=None',),
 'concatenate': ('tuple of Tensors tensors, int dim=0, *, Tensor out=None',),
 'conj': ('Tensor input',),
 'conj_physical': ('Tensor input, *, Tensor out=None',),
 'conj_physical_': ('Tensor input',),
 'constant_pad_nd': ('Tensor input, tuple of ints pad, Number value=0',),
 'conv1d': ('Tensor input, Tensor weight, Tensor bias=None, tuple of ints[1] stride=1, tuple of '
            'ints[1] padding=0, tuple of ints[1] dilation=1, int groups=1',
            'Tensor input, Tensor weight, Tensor bias=None, tuple of ints[1] stride=1, str '
            'padding="valid", tuple of ints[1] dilation=1, int groups=1'),
 'conv2d': ('Tensor input, Tensor weight, Tensor bias=None, tuple of ints[1] stride=1, tuple of '
            'ints[1] padding=0, tuple of ints[1] dilation=1, int groups=1',
            'Tensor input, Tensor weight, Tensor bias=None, tuple of ints[1] stride=1, str '
            'padding="valid", tuple of ints[1] dilation=1, int groups=1'),
 'conv3d': ('Tensor input, Tensor weight, Tensor bias=None, tuple of ints[1] stride=1, tuple of '
            'ints[1] padding=0, tuple of ints[1] dilation=1, int groups=1',
            'Tensor input, Tensor weight, Tensor bias=None, tuple of ints[1] stride=1, str '
            'padding="valid", tuple of ints[1] dilation=1, int groups=1'),
 'conv_transpose1d': ('Tensor input, Tensor weight, Tensor bias=None, tuple of ints[1] stride=1, '
                      'tuple of ints[1] padding=0, tuple of ints[1] output_padding=0, int '
                      'groups=1, tuple of ints[1] dilation=1',),
 'conv_transpose2d': ('Tensor input, Tensor weight, Tensor bias=None, tuple of ints[1] stride=1, '
                      'tuple of ints[1] padding=0, tuple of ints[1] output_padding=0, int '
                      'groups=1, tuple of ints[1] dilation=1',),
 'conv_transpose3d': ('Tensor input, Tensor weight, Tensor bias=None, tuple of ints[1] stride=1, '
                      'tuple of ints[1] padding=0, tuple of ints[1] output_padding=0, int '
                      'groups=1, tuple of ints[1] dilation=1',),
 'convolution': ('Tensor input, Tensor weight, Tensor? bias, tuple of ints stride, tuple of ints '
                 'padding, tuple of ints dilation, bool transposed, tuple of ints output_padding, '
                 'int groups',),
 'copysign': ('Tensor input, Tensor other, *, Tensor out=None',
              'Tensor input, Number other, *, Tensor out=None'),
 'corrcoef': ('Tensor input',),
 'cos': ('Tensor input, *, Tensor out=None',),
 'cos_': ('Tensor input',),
 'cosh': ('Tensor input, *, Tensor out=None',),
 'cosh_': ('Tensor input',),
 'cosine_embedding_loss': ('Tensor input1, Tensor input2, Tensor target, float margin=0.0, int '
                           'reduction=1',),
 'cosine_similarity': ('Tensor x1, Tensor x2, int dim=1, float eps=1e-08',),
 'count_nonzero': ('Tensor input, int dim=None', 'Tensor input, tuple of ints dim'),
 'cov': ('Tensor input, *, int correction=1, Tensor fweights=None, Tensor aweights=None',),
 'cross': ('Tensor input, Tensor other, int dim=None, *, Tensor out=None',),
 'ctc_loss': ('Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints '
              'target_lengths, int blank=0, int reduction=at::Reduction::Mean, bool '
              'zero_infinity=False',
              'Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int '
              'blank=0, int reduction=at::Reduction::Mean, bool zero_infinity=False'),
 'cummax': ('Tensor input, int dim, *, tuple of Tensors out=None',),
 'cummin': ('Tensor input, int dim, *, tuple of Tensors out=None',),
 'cumprod': ('Tensor input, int dim, *, torch.dtype dtype=None, Tensor out=None',),
 'cumsum': ('Tensor input, int dim, *, torch.dtype dtype=None, Tensor out=None',),
 'cumulative_trapezoid': ('Tensor y, Tensor x, *, int dim=-1',
                          'Tensor y, *, Number dx=1, int dim=-1'),
 'deg2rad': ('Tensor input, *, Tensor out=None',),
 'deg2rad_': ('Tensor input',),
 'det': ('Tensor input',),
 'detach': ('Tensor input',),
 'detach_': ('Tensor input',),
 'detach_copy': ('Tensor input, *, Tensor out=None',),
 'diag': ('Tensor input, int diagonal=0, *, Tensor out=None',),
 'diag_embed': ('Tensor input, int offset=0, int dim1=-2, int dim2=-1',),
 'diagflat': ('Tensor input, int offset=0',),
 'diagonal': ('Tensor input, int offset=0, int dim1=0, int dim2=1',),
 'diagonal_copy': ('Tensor input, int offset=0, int dim1=0, int dim2=1, *, Tensor out=None',),
 'diagonal_scatter': ('Tensor input, Tensor src, int offset=0, int dim1=0, int dim2=1',),
 'diff': ('Tensor input, int n=1, int dim=-1, Tensor prepend=None, Tensor append=None, *, Tensor '
          'out=None',),
 'digamma': ('Tensor input, *, Tensor out=None',),
 'dist': ('Tensor input, Tensor other, Number p=2',),
 'div': ('Tensor input, Tensor other, *, Tensor out=None',
         'Tensor input, Tensor other, *, str? rounding_mode, Tensor out=None',
         'Tensor input, Number other, *, str rounding_mode'),
 'divide': ('Tensor input, Tensor other, *, Tensor out=None',
            'Tensor input, Tensor other, *, str? rounding_mode, Tensor out=None',
            'Tensor input, Number other',
            'Tensor input, Number other, *, str? rounding_mode'),
 'dot': ('Tensor input, Tensor tensor, *, Tensor out=None',),
 'dropout': ('Tensor input, float p, bool train',),
 'dropout_': ('Tensor input, float p, bool train',),
 'dsplit': ('Tensor input, int sections', 'Tensor input, tuple of ints indices'),
 'dstack': ('tuple of Tensors tensors, *, Tensor out=None',),
 'embedding': ('Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, '
               'bool sparse=False',),
 'empty_like': ('Tensor input, *, torch.memory_format memory_format=None, torch.dtype dtype=None, '
                'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                'requires_grad=False',),
 'empty_permuted': ('tuple of ints size, tuple of ints physical_layout, *, torch.dtype dtype=None, '
                    'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, '
                    'bool? requires_grad=False',),
 'empty_strided': ('tuple of ints size, tuple of ints stride, *, torch.dtype dtype=None, '
                   'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, '
                   'bool? requires_grad=False',),
 'eq': ('Tensor input, Tensor other, *, Tensor out=None',
        'Tensor input, Number other, *, Tensor out=None'),
 'equal': ('Tensor input, Tensor other',),
 'erf': ('Tensor input, *, Tensor out=None',),
 'erf_': ('Tensor input',),
 'erfc': ('Tensor input, *, Tensor out=None',),
 'erfc_': ('Tensor input',),
 'erfinv': ('Tensor input, *, Tensor out=None',),
 'exp': ('Tensor input, *, Tensor out=None',),
 'exp2': ('Tensor input, *, Tensor out=None',),
 'exp2_': ('Tensor input',),
 'exp_': ('Tensor input',),
 'expand_copy': ('Tensor input, tuple of ints size, *, bool implicit=False, Tensor out=None',),
 'expm1': ('Tensor input, *, Tensor out=None',),
 'expm1_': ('Tensor input',),
 'eye': ('int n, *, Tensor out=None, torch.dtype dtype=None, torch.layout layout=None, '
         'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
         'int n, int m, *, Tensor out=None, torch.dtype dtype=None, torch.layout layout=None, '
         'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False'),
 'feature_alpha_dropout': ('Tensor input, float p, bool train',),
 'feature_alpha_dropout_': ('Tensor input, float p, bool train',),
 'feature_dropout': ('Tensor input, float p, bool train',),
 'feature_dropout_': ('Tensor input, float p, bool train',),
 'fill': ('Tensor input, Tensor value', 'Tensor input, Number value'),
 'fill_': ('Tensor input, Tensor value', 'Tensor input, Number value'),
 'fix': ('Tensor input, *, Tensor out=None',),
 'fix_': ('Tensor input',),
 'flatten': ('Tensor input, int start_dim=0, int end_dim=-1',),
 'flip': ('Tensor input, tuple of ints dims',),
 'fliplr': ('Tensor input',),
 'flipud': ('Tensor input',),
 'float_power': ('Tensor input, Tensor exponent, *, Tensor out=None',
                 'Number self, Tensor exponent, *, Tensor out=None',
                 'Tensor input, Number exponent, *, Tensor out=None'),
 'floor': ('Tensor input, *, Tensor out=None',),
 'floor_': ('Tensor input',),
 'floor_divide': ('Tensor input, Tensor other, *, Tensor out=None', 'Tensor input, Number other'),
 'fmax': ('Tensor input, Tensor other, *, Tensor out=None',),
 'fmin': ('Tensor input, Tensor other, *, Tensor out=None',),
 'fmod': ('Tensor input, Tensor other, *, Tensor out=None',
          'Tensor input, Number other, *, Tensor out=None'),
 'frac': ('Tensor input, *, Tensor out=None',),
 'frac_': ('Tensor input',),
 'frexp': ('Tensor input, *, tuple of Tensors out=None',),
 'frobenius_norm': ('Tensor input, tuple of ints[1] dim, bool keepdim=False, *, Tensor out=None',),
 'full_like': ('Tensor input, Number fill_value, *, torch.memory_format memory_format=None, '
               'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, bool? '
               'pin_memory=False, bool? requires_grad=False',),
 'gather': ('Tensor input, int dim, Tensor index, *, bool sparse_grad=False, Tensor out=None',),
 'gcd': ('Tensor input, Tensor other, *, Tensor out=None',),
 'gcd_': ('Tensor input, Tensor other',),
 'ge': ('Tensor input, Tensor other, *, Tensor out=None',
        'Tensor input, Number other, *, Tensor out=None'),
 'geqrf': ('Tensor input, *, tuple of Tensors out=None',),
 'ger': ('Tensor input, Tensor vec2, *, Tensor out=None',),
 'gradient': ('Tensor input, *, tuple of ints dim, int edge_order=1',
              'Tensor input, *, Number spacing, tuple of ints dim, int edge_order=1',
              'Tensor input, *, Number spacing=None, int dim=None, int edge_order=1',
              'Tensor input, *, tuple of Scalars? spacing, int dim=None, int edge_order=1',
              'Tensor input, *, tuple of Scalars? spacing, tuple of ints[1]? dim, int edge_order=1',
              'Tensor input, *, tuple of Tensors spacing, int dim=None, int edge_order=1',
              'Tensor input, *, tuple of Tensors spacing, tuple of ints dim, int edge_order=1'),
 'greater': ('Tensor input, Tensor other, *, Tensor out=None',
             'Tensor input, Number other, *, Tensor out=None'),
 'greater_equal': ('Tensor input, Tensor other, *, Tensor out=None',
                   'Tensor input, Number other, *, Tensor out=None'),
 'grid_sampler': ('Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool '
                  'align_corners',),
 'group_norm': ('Tensor input, int num_groups, Tensor weight=None, Tensor bias=None, float '
                'eps=1e-05, bool cudnn_enabled=True',),
 'gt': ('Tensor input, Tensor other, *, Tensor out=None',
        'Tensor input, Number other, *, Tensor out=None'),
 'hamming_window': ('int window_length, *, torch.dtype dtype=None, torch.layout layout=None, '
                    'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
                    'int window_length, bool periodic, *, torch.dtype dtype=None, torch.layout '
                    'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                    'requires_grad=False',
                    'int window_length, bool periodic, float alpha, *, torch.dtype dtype=None, '
                    'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, '
                    'bool? requires_grad=False',
                    'int window_length, bool periodic, float alpha, float beta, *, torch.dtype '
                    'dtype=None, torch.layout layout=None, torch.device device=None, bool? '
                    'pin_memory=False, bool? requires_grad=False'),
 'hann_window': ('int window_length, *, torch.dtype dtype=None, torch.layout layout=None, '
                 'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
                 'int window_length, bool periodic, *, torch.dtype dtype=None, torch.layout '
                 'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                 'requires_grad=False'),
 'hardshrink': ('Tensor input, Number lambd=0.5, *, Tensor out=None',),
 'heaviside': ('Tensor input, Tensor values, *, Tensor out=None',),
 'hinge_embedding_loss': ('Tensor input, Tensor target, float margin=1.0, int reduction=1',),
 'histc': ('Tensor input, int bins=100, Number min=0, Number max=0, *, Tensor out=None',),
 'histogram': ('Tensor input, Tensor bins, *, Tensor weight=None, bool density=False, tuple of '
               'Tensors out=None',
               'Tensor input, int bins=100, *, tuple of floats range=None, Tensor weight=None, '
               'bool density=False, tuple of Tensors out=None'),
 'histogramdd': ('Tensor input, int bins, tuple of floats range=None, Tensor weight=None, bool '
                 'density=False',
                 'Tensor input, tuple of ints bins, tuple of floats range=None, Tensor '
                 'weight=None, bool density=False',
                 'Tensor input, tuple of Tensors bins, tuple of floats range=None, Tensor '
                 'weight=None, bool density=False'),
 'hsplit': ('Tensor input, int sections', 'Tensor input, tuple of ints indices'),
 'hstack': ('tuple of Tensors tensors, *, Tensor out=None',),
 'hypot': ('Tensor input, Tensor other, *, Tensor out=None',),
 'i0': ('Tensor input, *, Tensor out=None',),
 'i0_': ('Tensor input',),
 'igamma': ('Tensor input, Tensor other, *, Tensor out=None',),
 'igammac': ('Tensor input, Tensor other, *, Tensor out=None',),
 'imag': ('Tensor input',),
 'index_add': ('Tensor input, int dim, Tensor index, Tensor source, *, Number alpha=1, Tensor '
               'out=None',),
 'index_copy': ('Tensor input, int dim, Tensor index, Tensor source, *, Tensor out=None',),
 'index_fill': ('Tensor input, int dim, Tensor index, Tensor value',
                'Tensor input, int dim, Tensor index, Number value'),
 'index_reduce': ('Tensor input, int dim, Tensor index, Tensor source, str reduce, *, bool '
                  'include_self=True, Tensor out=None',),
 'index_select': ('Tensor input, int dim, Tensor index, *, Tensor out=None',),
 'inner': ('Tensor input, Tensor other, *, Tensor out=None',),
 'instance_norm': ('Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? '
                   'running_var, bool use_input_stats, float momentum, float eps, bool '
                   'cudnn_enabled',),
 'inverse': ('Tensor input, *, Tensor out=None',),
 'is_complex': ('Tensor input',),
 'is_conj': ('Tensor input',),
 'is_floating_point': ('Tensor input',),
 'is_inference': ('Tensor input',),
 'is_neg': ('Tensor input',),
 'is_nonzero': ('Tensor input',),
 'is_same_size': ('Tensor input, Tensor other',),
 'is_signed': ('Tensor input',),
 'isclose': ('Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool '
             'equal_nan=False',),
 'isfinite': ('Tensor input',),
 'isin': ('Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False, '
          'Tensor out=None',
          'Number element, Tensor test_elements, *, bool assume_unique=False, bool invert=False, '
          'Tensor out=None',
          'Tensor elements, Number test_element, *, bool assume_unique=False, bool invert=False, '
          'Tensor out=None'),
 'isinf': ('Tensor input',),
 'isnan': ('Tensor input',),
 'isneginf': ('Tensor input, *, Tensor out=None',),
 'isposinf': ('Tensor input, *, Tensor out=None',),
 'isreal': ('Tensor input',),
 'kaiser_window': ('int window_length, *, torch.dtype dtype=None, torch.layout layout=None, '
                   'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
                   'int window_length, bool periodic, *, torch.dtype dtype=None, torch.layout '
                   'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                   'requires_grad=False',
                   'int window_length, bool periodic, float beta, *, torch.dtype dtype=None, '
                   'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, '
                   'bool? requires_grad=False'),
 'kl_div': ('Tensor input, Tensor target, int reduction=1, *, bool log_target=False',),
 'kron': ('Tensor input, Tensor other, *, Tensor out=None',),
 'kthvalue': ('Tensor input, int k, int dim=-1, bool keepdim=False, *, tuple of Tensors out=None',),
 'layer_norm': ('Tensor input, tuple of ints normalized_shape, Tensor weight=None, Tensor '
                'bias=None, float eps=1e-05, bool cudnn_enable=True',),
 'lcm': ('Tensor input, Tensor other, *, Tensor out=None',),
 'lcm_': ('Tensor input, Tensor other',),
 'ldexp': ('Tensor input, Tensor other, *, Tensor out=None',),
 'ldexp_': ('Tensor input, Tensor other',),
 'le': ('Tensor input, Tensor other, *, Tensor out=None',
        'Tensor input, Number other, *, Tensor out=None'),
 'lerp': ('Tensor input, Tensor end, Tensor weight, *, Tensor out=None',
          'Tensor input, Tensor end, Number weight, *, Tensor out=None'),
 'less': ('Tensor input, Tensor other, *, Tensor out=None',
          'Tensor input, Number other, *, Tensor out=None'),
 'less_equal': ('Tensor input, Tensor other, *, Tensor out=None',
                'Tensor input, Number other, *, Tensor out=None'),
 'lgamma': ('Tensor input, *, Tensor out=None',),
 'linspace': ('Tensor start, Tensor end, int steps, *, Tensor out=None, torch.dtype dtype=None, '
              'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
              'requires_grad=False',
              'Number start, Tensor end, int steps, *, Tensor out=None, torch.dtype dtype=None, '
              'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
              'requires_grad=False',
              'Tensor start, Number end, int steps, *, Tensor out=None, torch.dtype dtype=None, '
              'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
              'requires_grad=False',
              'Number start, Number end, int steps, *, Tensor out=None, torch.dtype dtype=None, '
              'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
              'requires_grad=False'),
 'log': ('Tensor input, *, Tensor out=None',),
 'log10': ('Tensor input, *, Tensor out=None',),
 'log10_': ('Tensor input',),
 'log1p': ('Tensor input, *, Tensor out=None',),
 'log1p_': ('Tensor input',),
 'log2': ('Tensor input, *, Tensor out=None',),
 'log2_': ('Tensor input',),
 'log_': ('Tensor input',),
 'log_softmax': ('Tensor input, int dim, torch.dtype dtype=None, *, Tensor out=None',),
 'logaddexp': ('Tensor input, Tensor other, *, Tensor out=None',),
 'logaddexp2': ('Tensor input, Tensor other, *, Tensor out=None',),
 'logcumsumexp': ('Tensor input, int dim, *, Tensor out=None',),
 'logdet': ('Tensor input',),
 'logical_and': ('Tensor input, Tensor other, *, Tensor out=None',),
 'logical_not': ('Tensor input, *, Tensor out=None',),
 'logical_or': ('Tensor input, Tensor other, *, Tensor out=None',),
 'logical_xor': ('Tensor input, Tensor other, *, Tensor out=None',),
 'logit': ('Tensor input, float eps=None, *, Tensor out=None',),
 'logit_': ('Tensor input, float eps=None',),
 'logspace': ('Tensor start, Tensor end, int steps, float base=10.0, *, Tensor out=None, '
              'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, bool? '
              'pin_memory=False, bool? requires_grad=False',
              'Number start, Tensor end, int steps, float base=10.0, *, Tensor out=None, '
              'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, bool? '
              'pin_memory=False, bool? requires_grad=False',
              'Tensor start, Number end, int steps, float base=10.0, *, Tensor out=None, '
              'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, bool? '
              'pin_memory=False, bool? requires_grad=False',
              'Number start, Number end, int steps, float base=10.0, *, Tensor out=None, '
              'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, bool? '
              'pin_memory=False, bool? requires_grad=False'),
 'logsumexp': ('Tensor input, tuple of ints[1] dim, bool keepdim=False, *, Tensor out=None',),
 'lt': ('Tensor input, Tensor other, *, Tensor out=None',
        'Tensor input, Number other, *, Tensor out=None'),
 'lu_solve': ('Tensor input, Tensor LU_data, Tensor LU_pivots, *, Tensor out=None',),
 'lu_unpack': ('Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True, '
               '*, tuple of Tensors out=None',),
 'margin_ranking_loss': ('Tensor input1, Tensor input2, Tensor target, float margin=0.0, int '
                         'reduction=1',),
 'masked_fill': ('Tensor input, Tensor mask, Tensor value',
                 'Tensor input, Tensor mask, Number value'),
 'masked_scatter': ('Tensor input, Tensor mask, Tensor source',),
 'masked_select': ('Tensor input, Tensor mask, *, Tensor out=None',),
 'matmul': ('Tensor input, Tensor other, *, Tensor out=None',),
 'matrix_exp': ('Tensor input',),
 'matrix_power': ('Tensor input, int n, *, Tensor out=None',),
 'max': ('Tensor input, *, Tensor out=None',
         'Tensor input, Tensor other, *, Tensor out=None',
         'Tensor input, int dim, bool keepdim=False, *, tuple of Tensors out=None'),
 'max_pool1d': ('Tensor input, tuple of ints[1] kernel_size, tuple of ints[1] stride=(), tuple of '
                'ints[1] padding=0, tuple of ints[1] dilation=1, bool ceil_mode=False',),
 'max_pool1d_with_indices': ('Tensor input, tuple of ints[1] kernel_size, tuple of ints[1] '
                             'stride=(), tuple of ints[1] padding=0, tuple of ints[1] dilation=1, '
                             'bool ceil_mode=False',),
 'max_pool2d': ('Tensor input, tuple of ints[1] kernel_size, tuple of ints[1] stride=(), tuple of '
                'ints[1] padding=0, tuple of ints[1] dilation=1, bool ceil_mode=False',),
 'max_pool3d': ('Tensor input, tuple of ints[1] kernel_size, tuple of ints[1] stride=(), tuple of '
                'ints[1] padding=0, tuple of ints[1] dilation=1, bool ceil_mode=False',),
 'maximum': ('Tensor input, Tensor other, *, Tensor out=None',),
 'mean': ('Tensor input, *, torch.dtype dtype=None, Tensor out=None',
          'Tensor input, tuple of ints[1]? dim, bool keepdim=False, *, torch.dtype dtype=None, '
          'Tensor out=None'),
 'median': ('Tensor input',
            'Tensor input, int dim, bool keepdim=False, *, tuple of Tensors out=None'),
 'min': ('Tensor input, *, Tensor out=None',
         'Tensor input, Tensor other, *, Tensor out=None',
         'Tensor input, int dim, bool keepdim=False, *, tuple of Tensors out=None'),
 'minimum': ('Tensor input, Tensor other, *, Tensor out=None',),
 'mm': ('Tensor input, Tensor mat2, *, Tensor out=None',
        'Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out=None'),
 'mode': ('Tensor input, int dim=-1, bool keepdim=False, *, tuple of Tensors out=None',),
 'moveaxis': ('Tensor input, int source, int destination',
              'Tensor input, tuple of ints source, tuple of ints destination'),
 'movedim': ('Tensor input, int source, int destination',
             'Tensor input, tuple of ints source, tuple of ints destination'),
 'msort': ('Tensor input, *, Tensor out=None',),
 'mul': ('Tensor input, Tensor other, *, Tensor out=None',),
 'multinomial': ('Tensor input, int num_samples, bool replacement=False, *, torch.Generator '
                 'generator=None, Tensor out=None',),
 'multiply': ('Tensor input, Tensor other, *, Tensor out=None', 'Tensor input, Number other'),
 'mv': ('Tensor input, Tensor vec, *, Tensor out=None',),
 'mvlgamma': ('Tensor input, int p, *, Tensor out=None',),
 'nan_to_num': ('Tensor input, float nan=None, float posinf=None, float neginf=None, *, Tensor '
                'out=None',),
 'nan_to_num_': ('Tensor input, float nan=None, float posinf=None, float neginf=None',),
 'nanmean': ('Tensor input, tuple of ints[1] dim=None, bool keepdim=False, *, torch.dtype '
             'dtype=None, Tensor out=None',),
 'nanmedian': ('Tensor input',
               'Tensor input, int dim, bool keepdim=False, *, tuple of Tensors out=None'),
 'nanquantile': ('Tensor input, Tensor q, int dim=None, bool keepdim=False, *, str '
                 'interpolation="linear", Tensor out=None',
                 'Tensor input, float q, int dim=None, bool keepdim=False, *, str '
                 'interpolation="linear", Tensor out=None'),
 'nansum': ('Tensor input, tuple of ints[1] dim=None, bool keepdim=False, *, torch.dtype '
            'dtype=None, Tensor out=None',),
 'narrow': ('Tensor input, int dim, Tensor start, int length',
            'Tensor input, int dim, int start, int length'),
 'narrow_copy': ('Tensor input, int dim, int start, int length, *, Tensor out=None',),
 'native_channel_shuffle': ('Tensor input, int groups',),
 'ne': ('Tensor input, Tensor other, *, Tensor out=None',
        'Tensor input, Number other, *, Tensor out=None'),
 'neg': ('Tensor input, *, Tensor out=None',),
 'neg_': ('Tensor input',),
 'negative': ('Tensor input, *, Tensor out=None',),
 'negative_': ('Tensor input',),
 'nextafter': ('Tensor input, Tensor other, *, Tensor out=None',),
 'nonzero_static': ('Tensor input, *, int size, int fill_value=-1, Tensor out=None',),
 'norm_except_dim': ('Tensor v, int pow=2, int dim=0',),
 'normal': ('Tensor mean, Tensor std, *, torch.Generator generator=None, Tensor out=None',
            'Tensor mean, float std=1, *, torch.Generator generator=None, Tensor out=None',
            'float mean, Tensor std, *, torch.Generator generator=None, Tensor out=None',
            'float mean, float std, tuple of ints size, *, torch.Generator generator=None, Tensor '
            'out=None, torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, '
            'bool? pin_memory=False, bool? requires_grad=False'),
 'not_equal': ('Tensor input, Tensor other, *, Tensor out=None',
               'Tensor input, Number other, *, Tensor out=None'),
 'nuclear_norm': ('Tensor input, tuple of ints[1] dim, bool keepdim=False, *, Tensor out=None',
                  'Tensor input, bool keepdim=False, *, Tensor out=None'),
 'numel': ('Tensor input',),
 'ones_like': ('Tensor input, *, torch.memory_format memory_format=None, torch.dtype dtype=None, '
               'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
               'requires_grad=False',),
 'orgqr': ('Tensor input, Tensor input2, *, Tensor out=None',),
 'ormqr': ('Tensor input, Tensor input2, Tensor input3, bool left=True, bool transpose=False, *, '
           'Tensor out=None',),
 'outer': ('Tensor input, Tensor vec2, *, Tensor out=None',),
 'pairwise_distance': ('Tensor x1, Tensor x2, float p=2, float eps=1e-06, bool keepdim=False',),
 'pdist': ('Tensor input, float p=2',),
 'permute': ('Tensor input, tuple of ints dims',),
 'permute_copy': ('Tensor input, tuple of ints dims, *, Tensor out=None',),
 'pinverse': ('Tensor input, float rcond=1e-15',),
 'pixel_shuffle': ('Tensor input, int upscale_factor',),
 'pixel_unshuffle': ('Tensor input, int downscale_factor',),
 'poisson': ('Tensor input, torch.Generator generator=None',),
 'poisson_nll_loss': ('Tensor input, Tensor target, bool log_input, bool full, float eps, int '
                      'reduction',),
 'polygamma': ('int n, Tensor input, *, Tensor out=None',),
 'positive': ('Tensor input',),
 'pow': ('Tensor input, Tensor exponent, *, Tensor out=None',
         'Number self, Tensor exponent, *, Tensor out=None',
         'Tensor input, Number exponent, *, Tensor out=None'),
 'prelu': ('Tensor input, Tensor weight',),
 'prod': ('Tensor input, *, torch.dtype dtype=None',
          'Tensor input, int dim, bool keepdim=False, *, torch.dtype dtype=None, Tensor out=None'),
 'promote_types': ('torch.dtype type1, torch.dtype type2',),
 'put': ('Tensor input, Tensor index, Tensor source, bool accumulate=False',),
 'qr': ('Tensor input, bool some=True, *, tuple of Tensors out=None',),
 'quantile': ('Tensor input, Tensor q, int dim=None, bool keepdim=False, *, str '
              'interpolation="linear", Tensor out=None',
              'Tensor input, float q, int dim=None, bool keepdim=False, *, str '
              'interpolation="linear", Tensor out=None'),
 'rad2deg': ('Tensor input, *, Tensor out=None',),
 'rad2deg_': ('Tensor input',),
 'rand': ('tuple of ints size, *, torch.Generator? generator, Tensor out=None, torch.dtype '
          'dtype=None, torch.layout layout=None, torch.device device=None, bool? pin_memory=False, '
          'bool? requires_grad=False',
          'tuple of ints size, *, Tensor out=None, torch.dtype dtype=None, torch.layout '
          'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
          'requires_grad=False'),
 'rand_like': ('Tensor input, *, torch.Generator? generator, torch.memory_format '
               'memory_format=None, torch.dtype dtype=None, torch.layout layout=None, torch.device '
               'device=None, bool? pin_memory=False, bool? requires_grad=False',
               'Tensor input, *, torch.memory_format memory_format=None, torch.dtype dtype=None, '
               'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
               'requires_grad=False'),
 'randint': ('int high, tuple of ints size, *, torch.Generator? generator, Tensor out=None, '
             'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, bool? '
             'pin_memory=False, bool? requires_grad=False',
             'int high, tuple of ints size, *, Tensor out=None, torch.dtype dtype=None, '
             'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
             'requires_grad=False',
             'int low, int high, tuple of ints size, *, torch.Generator? generator, Tensor '
             'out=None, torch.dtype dtype=None, torch.layout layout=None, torch.device '
             'device=None, bool? pin_memory=False, bool? requires_grad=False',
             'int low, int high, tuple of ints size, *, Tensor out=None, torch.dtype dtype=None, '
             'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
             'requires_grad=False'),
 'randint_like': ('Tensor input, int low, int high, *, torch.Generator? generator, '
                  'torch.memory_format memory_format=None, torch.dtype dtype=None, torch.layout '
                  'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                  'requires_grad=False',
                  'Tensor input, int low, int high, *, torch.memory_format memory_format=None, '
                  'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, '
                  'bool? pin_memory=False, bool? requires_grad=False',
                  'Tensor input, Tensor high, *, torch.Generator? generator, torch.memory_format '
                  'memory_format=None, torch.dtype dtype=None, torch.layout layout=None, '
                  'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
                  'Tensor input, Tensor high, *, torch.memory_format memory_format=None, '
                  'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, '
                  'bool? pin_memory=False, bool? requires_grad=False',
                  'Tensor input, int high, *, torch.Generator? generator, torch.memory_format '
                  'memory_format=None, torch.dtype dtype=None, torch.layout layout=None, '
                  'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
                  'Tensor input, int high, *, torch.memory_format memory_format=None, torch.dtype '
                  'dtype=None, torch.layout layout=None, torch.device device=None, bool? '
                  'pin_memory=False, bool? requires_grad=False'),
 'randn': ('tuple of ints size, *, torch.Generator? generator, Tensor out=None, torch.dtype '
           'dtype=None, torch.layout layout=None, torch.device device=None, bool? '
           'pin_memory=False, bool? requires_grad=False',
           'tuple of ints size, *, Tensor out=None, torch.dtype dtype=None, torch.layout '
           'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
           'requires_grad=False'),
 'randn_like': ('Tensor input, *, torch.Generator? generator, torch.memory_format '
                'memory_format=None, torch.dtype dtype=None, torch.layout layout=None, '
                'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False',
                'Tensor input, *, torch.memory_format memory_format=None, torch.dtype dtype=None, '
                'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                'requires_grad=False'),
 'randperm': ('int n, *, torch.Generator? generator, Tensor out=None, torch.dtype dtype=None, '
              'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
              'requires_grad=False',
              'int n, *, Tensor out=None, torch.dtype dtype=None, torch.layout layout=None, '
              'torch.device device=None, bool? pin_memory=False, bool? requires_grad=False'),
 'range': ('Number start, Number end, Number step=1, *, Tensor out=None, torch.dtype dtype=None, '
           'torch.device device=None, bool requires_grad=False, bool pin_memory=False',),
 'ravel': ('Tensor input',),
 'real': ('Tensor input',),
 'reciprocal': ('Tensor input, *, Tensor out=None',),
 'reciprocal_': ('Tensor input',),
 'relu': ('Tensor input',),
 'relu_': ('Tensor input',),
 'remainder': ('Tensor input, Tensor other, *, Tensor out=None',
               'Number self, Tensor other',
               'Tensor input, Number other, *, Tensor out=None'),
 'renorm': ('Tensor input, Number p, int dim, Number maxnorm, *, Tensor out=None',),
 'repeat_interleave': ('Tensor input, Tensor repeats, int dim=None, *, int output_size=None',
                       'Tensor repeats, *, int output_size=None',
                       'Tensor input, int repeats, int dim=None, *, int output_size=None'),
 'reshape': ('Tensor input, tuple of ints shape',),
 'resize_as_': ('Tensor input, Tensor the_template, *, torch.memory_format memory_format=None',),
 'resolve_conj': ('Tensor input',),
 'resolve_neg': ('Tensor input',),
 'result_type': ('Tensor tensor, Tensor other',
                 'Number scalar, Tensor tensor',
                 'Tensor tensor, Number other',
                 'Number scalar1, Number scalar2'),
 'rms_norm': ('Tensor input, tuple of ints normalized_shape, Tensor weight=None, float eps=None',),
 'roll': ('Tensor input, tuple of ints[1] shifts, tuple of ints[1] dims=()',),
 'rot90': ('Tensor input, int k=1, tuple of ints dims=(0,1)',),
 'round': ('Tensor input, *, Tensor out=None', 'Tensor input, *, int decimals, Tensor out=None'),
 'round_': ('Tensor input', 'Tensor input, *, int decimals'),
 'row_stack': ('tuple of Tensors tensors, *, Tensor out=None',),
 'rrelu': ('Tensor input, Number lower=0.125, Number upper=0.3333333333333333, bool '
           'training=False, torch.Generator generator=None',),
 'rrelu_': ('Tensor input, Number lower=0.125, Number upper=0.3333333333333333, bool '
            'training=False, torch.Generator generator=None',),
 'rsqrt': ('Tensor input, *, Tensor out=None',),
 'rsqrt_': ('Tensor input',),
 'rsub': ('Tensor input, Tensor other, *, Number alpha=1',
          'Tensor input, Number other, Number alpha=1'),
 'scalar_tensor': ('Number s, *, torch.dtype dtype=None, torch.layout layout=None, torch.device '
                   'device=None, bool? pin_memory=False, bool? requires_grad=False',),
 'scatter': ('Tensor input, int dim, Tensor index, Tensor src, *, Tensor out=None',
             'Tensor input, int dim, Tensor index, Tensor src, *, str reduce, Tensor out=None',
             'Tensor input, int dim, Tensor index, Number value, *, Tensor out=None',
             'Tensor input, int dim, Tensor index, Number value, *, str reduce, Tensor out=None'),
 'scatter_add': ('Tensor input, int dim, Tensor index, Tensor src, *, Tensor out=None',),
 'scatter_reduce': ('Tensor input, int dim, Tensor index, Tensor src, str reduce, *, bool '
                    'include_self=True, Tensor out=None',),
 'searchsorted': ('Tensor sorted_sequence, Tensor input, *, bool out_int32=False, bool '
                  'right=False, str side=None, Tensor sorter=None, Tensor out=None',
                  'Tensor sorted_sequence, Number self, *, bool out_int32=False, bool right=False, '
                  'str side=None, Tensor sorter=None, Tensor out=None'),
 'select': ('Tensor input, int dim, int index',),
 'select_copy': ('Tensor input, int dim, int index, *, Tensor out=None',),
 'select_scatter': ('Tensor input, Tensor src, int dim, int index',),
 'selu': ('Tensor input',),
 'selu_': ('Tensor input',),
 'sgn': ('Tensor input, *, Tensor out=None',),
 'sigmoid': ('Tensor input, *, Tensor out=None',),
 'sigmoid_': ('Tensor input',),
 'sign': ('Tensor input, *, Tensor out=None',),
 'signbit': ('Tensor input, *, Tensor out=None',),
 'sin': ('Tensor input, *, Tensor out=None',),
 'sin_': ('Tensor input',),
 'sinc': ('Tensor input, *, Tensor out=None',),
 'sinc_': ('Tensor input',),
 'sinh': ('Tensor input, *, Tensor out=None',),
 'sinh_': ('Tensor input',),
 'slice_copy': ('Tensor input, int dim=0, int start=None, int end=None, int step=1, *, Tensor '
                'out=None',),
 'slice_scatter': ('Tensor input, Tensor src, int dim=0, int start=None, int end=None, int step=1, '
                   '*, Tensor out=None',),
 'slogdet': ('Tensor input, *, tuple of Tensors out=None',),
 'softmax': ('Tensor input, int dim, torch.dtype dtype=None, *, Tensor out=None',),
 'sort': ('Tensor input, *, bool? stable, int dim=-1, bool descending=False, tuple of Tensors '
          'out=None',
          'Tensor input, int dim=-1, bool descending=False, *, tuple of Tensors out=None'),
 'split_copy': ('Tensor input, int split_size, int dim=0, *, tuple of Tensors out=None',),
 'split_with_sizes': ('Tensor input, tuple of ints split_sizes, int dim=0',),
 'split_with_sizes_copy': ('Tensor input, tuple of ints split_sizes, int dim=0, *, tuple of '
                           'Tensors out=None',),
 'sqrt': ('Tensor input, *, Tensor out=None',),
 'sqrt_': ('Tensor input',),
 'square': ('Tensor input, *, Tensor out=None',),
 'square_': ('Tensor input',),
 'squeeze': ('Tensor input', 'Tensor input, int dim', 'Tensor input, tuple of ints dim'),
 'squeeze_copy': ('Tensor input, *, Tensor out=None',
                  'Tensor input, int dim, *, Tensor out=None',
                  'Tensor input, tuple of ints dim, *, Tensor out=None'),
 'stack': ('tuple of Tensors tensors, int dim=0, *, Tensor out=None',),
 'std': ('Tensor input, tuple of ints[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor '
         'out=None',
         'Tensor input, tuple of ints[1] dim=None, *, Number correction=None, bool keepdim=False, '
         'Tensor out=None',
         'Tensor input, bool unbiased=True'),
 'std_mean': ('Tensor input, tuple of ints[1]? dim, bool unbiased=True, bool keepdim=False',
              'Tensor input, tuple of ints[1] dim=None, *, Number correction=None, bool '
              'keepdim=False',
              'Tensor input, bool unbiased=True'),
 'sub': ('Tensor input, Tensor other, *, Number alpha=1, Tensor out=None',),
 'subtract': ('Tensor input, Tensor other, *, Number alpha=1, Tensor out=None',
              'Tensor input, Number other, Number alpha=1'),
 'sum': ('Tensor input, *, torch.dtype dtype=None',
         'Tensor input, tuple of ints[1]? dim, bool keepdim=False, *, torch.dtype dtype=None, '
         'Tensor out=None'),
 'svd': ('Tensor input, bool some=True, bool compute_uv=True, *, tuple of Tensors out=None',),
 'swapaxes': ('Tensor input, int axis0, int axis1',),
 'swapdims': ('Tensor input, int dim0, int dim1',),
 't': ('Tensor input',),
 't_copy': ('Tensor input, *, Tensor out=None',),
 'take': ('Tensor input, Tensor index, *, Tensor out=None',),
 'take_along_dim': ('Tensor input, Tensor indices, int dim=None, *, Tensor out=None',),
 'tan': ('Tensor input, *, Tensor out=None',),
 'tan_': ('Tensor input',),
 'tanh': ('Tensor input, *, Tensor out=None',),
 'tanh_': ('Tensor input',),
 'tensor_split': ('Tensor input, tuple of ints indices, int dim=0',
                  'Tensor input, Tensor tensor_indices_or_sections, int dim=0',
                  'Tensor input, int sections, int dim=0'),
 'threshold': ('Tensor input, Number threshold, Number value, *, Tensor out=None',),
 'threshold_': ('Tensor input, Number threshold, Number value',),
 'tile': ('Tensor input, tuple of ints dims',),
 'topk': ('Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True, *, tuple of '
          'Tensors out=None',),
 'trace': ('Tensor input',),
 'transpose': ('Tensor input, int dim0, int dim1',),
 'transpose_copy': ('Tensor input, int dim0, int dim1, *, Tensor out=None',),
 'trapezoid': ('Tensor y, Tensor x, *, int dim=-1', 'Tensor y, *, Number dx=1, int dim=-1'),
 'trapz': ('Tensor y, *, float dx=1, int dim=-1', 'Tensor y, Tensor x, *, int dim=-1'),
 'triangular_solve': ('Tensor input, Tensor A, bool upper=True, bool transpose=False, bool '
                      'unitriangular=False, *, tuple of Tensors out=None',),
 'tril': ('Tensor input, int diagonal=0, *, Tensor out=None',),
 'tril_indices': ('int row, int col, int offset=0, *, torch.dtype dtype=None, torch.layout '
                  'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                  'requires_grad=False',),
 'triplet_margin_loss': ('Tensor anchor, Tensor positive, Tensor negative, float margin=1.0, float '
                         'p=2, float eps=1e-06, bool swap=False, int reduction=1',),
 'triu': ('Tensor input, int diagonal=0, *, Tensor out=None',),
 'triu_indices': ('int row, int col, int offset=0, *, torch.dtype dtype=None, torch.layout '
                  'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                  'requires_grad=False',),
 'true_divide': ('Tensor input, Tensor other, *, Tensor out=None', 'Tensor input, Number other'),
 'trunc': ('Tensor input, *, Tensor out=None',),
 'trunc_': ('Tensor input',),
 'unbind': ('Tensor input, int dim=0',),
 'unbind_copy': ('Tensor input, int dim=0, *, tuple of Tensors out=None',),
 'unflatten': ('Tensor input, int dim, tuple of ints sizes',),
 'unfold_copy': ('Tensor input, int dimension, int size, int step, *, Tensor out=None',),
 'unsafe_chunk': ('Tensor input, int chunks, int dim=0',),
 'unsafe_split': ('Tensor input, int split_size, int dim=0',),
 'unsafe_split_with_sizes': ('Tensor input, tuple of ints split_sizes, int dim=0',),
 'unsqueeze': ('Tensor input, int dim',),
 'unsqueeze_copy': ('Tensor input, int dim, *, Tensor out=None',),
 'vander': ('Tensor x, int N=None, bool increasing=False',),
 'var': ('Tensor input, tuple of ints[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor '
         'out=None',
         'Tensor input, tuple of ints[1] dim=None, *, Number correction=None, bool keepdim=False, '
         'Tensor out=None',
         'Tensor input, bool unbiased=True'),
 'var_mean': ('Tensor input, tuple of ints[1]? dim, bool unbiased=True, bool keepdim=False',
              'Tensor input, tuple of ints[1] dim=None, *, Number correction=None, bool '
              'keepdim=False',
              'Tensor input, bool unbiased=True'),
 'vdot': ('Tensor input, Tensor other, *, Tensor out=None',),
 'view_copy': ('Tensor input, torch.dtype dtype, *, Tensor out=None',
               'Tensor input, tuple of ints size, *, Tensor out=None'),
 'vsplit': ('Tensor input, int sections', 'Tensor input, tuple of ints indices'),
 'vstack': ('tuple of Tensors tensors, *, Tensor out=None',),
 'where': ('Tensor condition',
           'Tensor condition, Tensor input, Tensor other, *, Tensor out=None',
           'Tensor condition, Number self, Tensor other',
           'Tensor condition, Tensor input, Number other',
           'Tensor condition, Number self, Number other'),
 'xlogy': ('Tensor input, Tensor other, *, Tensor out=None',
           'Number self, Tensor other, *, Tensor out=None',
           'Tensor input, Number other, *, Tensor out=None'),
 'xlogy_': ('Tensor input, Tensor other', 'Tensor input, Number other'),
 'zero_': ('Tensor input',),
 'zeros_like': ('Tensor input, *, torch.memory_format memory_format=None, torch.dtype dtype=None, '
                'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, bool? '
                'requires_grad=False',)}

# the functions whose Tensor parameters take a Python number too (torch.add(2, 3))
NUMBERS_AS_TENSORS = frozenset(['add', 'arange', 'div', 'divide', 'empty', 'eye', 'floor_divide', 'mul', 'multiply', 'ones',
 'rand', 'randn', 'range', 'result_type', 'sub', 'subtract', 'tril_indices', 'triu_indices',
 'true_divide', 'zeros'])

# the functions with signatures PyTorch does not print (deprecated ones): a lone printed one
# is reported as one of several
HIDDEN = frozenset(['add', 'addbmm', 'addcdiv', 'addcmul', 'addmm', 'addmv', 'addmv_', 'addr', 'arange', 'baddbmm',
 'linspace', 'logspace', 'rand', 'randint', 'randn', 'sub'])

# name -> its deprecated signatures, which PyTorch takes with a warning and never prints in
# its errors (tools/autograd/deprecated.yaml)
DEPRECATED = {'add': ('Tensor input, Number alpha, Tensor other, *, Tensor out=None',),
 'addbmm': ('Number beta, Tensor input, Number alpha, Tensor batch1, Tensor batch2, *, Tensor '
            'out=None',
            'Number beta, Tensor input, Tensor batch1, Tensor batch2, *, Tensor out=None'),
 'addcdiv': ('Tensor input, Number value, Tensor tensor1, Tensor tensor2, *, Tensor out=None',),
 'addcmul': ('Tensor input, Number value, Tensor tensor1, Tensor tensor2, *, Tensor out=None',),
 'addmm': ('Number beta, Tensor input, Number alpha, Tensor mat1, Tensor mat2, *, Tensor out=None',
           'Number beta, Tensor input, Tensor mat1, Tensor mat2, *, Tensor out=None'),
 'addmv': ('Number beta, Tensor input, Number alpha, Tensor mat, Tensor vec, *, Tensor out=None',
           'Number beta, Tensor input, Tensor mat, Tensor vec, *, Tensor out=None'),
 'addmv_': ('Number beta, Tensor input, Number alpha, Tensor mat, Tensor vec',
            'Number beta, Tensor input, Tensor mat, Tensor vec'),
 'addr': ('Number beta, Tensor input, Number alpha, Tensor vec1, Tensor vec2, *, Tensor out=None',
          'Number beta, Tensor input, Tensor vec1, Tensor vec2, *, Tensor out=None'),
 'baddbmm': ('Number beta, Tensor input, Number alpha, Tensor batch1, Tensor batch2, *, Tensor '
             'out=None',
             'Number beta, Tensor input, Tensor batch1, Tensor batch2, *, Tensor out=None'),
 'sub': ('Tensor input, Number alpha, Tensor other, *, Tensor out=None',)}

# name -> its int and int-list parameters PyTorch declares SymInt (a one-element integer
# tensor of any shape counts as one such int; the others take a 0-d one alone)
SYMINT = {'affine_grid_generator': ('size',),
 'as_strided': ('size', 'storage_offset', 'stride'),
 'as_strided_': ('size', 'storage_offset', 'stride'),
 'as_strided_copy': ('size', 'storage_offset', 'stride'),
 'as_strided_scatter': ('size', 'storage_offset', 'stride'),
 'bincount': ('minlength',),
 'broadcast_to': ('size',),
 'channel_shuffle': ('groups',),
 'constant_pad_nd': ('pad',),
 'conv1d': ('dilation', 'groups', 'padding', 'stride'),
 'conv2d': ('dilation', 'groups', 'padding', 'stride'),
 'conv3d': ('dilation', 'groups', 'padding', 'stride'),
 'conv_transpose1d': ('dilation', 'groups', 'output_padding', 'padding', 'stride'),
 'conv_transpose2d': ('dilation', 'groups', 'output_padding', 'padding', 'stride'),
 'conv_transpose3d': ('dilation', 'groups', 'output_padding', 'padding', 'stride'),
 'convolution': ('dilation', 'groups', 'output_padding', 'padding', 'stride'),
 'embedding': ('padding_idx',),
 'empty_permuted': ('size',),
 'empty_strided': ('size', 'stride'),
 'expand_copy': ('size',),
 'eye': ('m', 'n'),
 'kthvalue': ('k',),
 'layer_norm': ('normalized_shape',),
 'multinomial': ('num_samples',),
 'narrow': ('length', 'start'),
 'narrow_copy': ('length', 'start'),
 'native_channel_shuffle': ('groups',),
 'nonzero_static': ('size',),
 'normal': ('size',),
 'rand': ('size',),
 'randint': ('high', 'low', 'size'),
 'randint_like': ('high', 'low'),
 'randn': ('size',),
 'randperm': ('n',),
 'repeat_interleave': ('output_size', 'repeats'),
 'reshape': ('shape',),
 'rms_norm': ('normalized_shape',),
 'roll': ('shifts',),
 'select': ('index',),
 'select_copy': ('index',),
 'select_scatter': ('index',),
 'slice_copy': ('end', 'start', 'step'),
 'slice_scatter': ('end', 'start', 'step'),
 'split_copy': ('split_size',),
 'split_with_sizes': ('split_sizes',),
 'split_with_sizes_copy': ('split_sizes',),
 'tensor_split': ('indices', 'sections'),
 'tile': ('dims',),
 'topk': ('k',),
 'tril': ('diagonal',),
 'triu': ('diagonal',),
 'unflatten': ('sizes',),
 'unsafe_split': ('split_size',),
 'unsafe_split_with_sizes': ('split_sizes',),
 'view_copy': ('size',)}

# the factories whose one printed signature the listings above cannot tell (their .pyi declares
# `*size` and named-dimension overloads too, which PyTorch 2.13's parser does not offer), as
# PyTorch 2.13 checks them: the order of the keyword arguments is the order in which it reports
# the first wrong one (torch.empty checks memory_format first); `object data` takes anything
FACTORY_SIGNATURES = {
    '_efficientzerotensor': ('tuple of ints size, *, torch.dtype dtype=None, torch.layout layout=None, '
                             'torch.device device=None, bool? pin_memory=False, bool? '
                             'requires_grad=False',),
    'asarray': ('object obj, *, torch.dtype? dtype=None, torch.device? device=None, bool? copy=None, '
                'bool? requires_grad=False',),
    'as_tensor': ('object data, *, torch.dtype dtype=None, torch.device? device=None',),
    'empty': ('tuple of ints size, *, torch.memory_format? memory_format=None, Tensor out=None, '
              'torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, '
              'bool? pin_memory=False, bool? requires_grad=False',),
    'full': ('tuple of ints size, Number fill_value, *, Tensor out=None, torch.dtype dtype=None, '
             'torch.layout layout=None, torch.device device=None, bool? pin_memory=False, '
             'bool? requires_grad=False',),
    'ones': ('tuple of ints size, *, Tensor out=None, torch.dtype dtype=None, torch.layout '
             'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
             'requires_grad=False',),
    'tensor': ('object data, *, torch.dtype dtype=None, torch.device? device=None, bool '
               'pin_memory=False, bool requires_grad=False',),
    'zeros': ('tuple of ints size, *, Tensor out=None, torch.dtype dtype=None, torch.layout '
              'layout=None, torch.device device=None, bool? pin_memory=False, bool? '
              'requires_grad=False',),
}
