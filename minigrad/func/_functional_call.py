"""functional_call: call a module with some of its parameters replaced, for one call only.

``functional_call(model, {"weight": w}, (x,))`` runs ``model(x)`` as if
``model.weight`` were ``w``, then puts the original back. This turns a
module into a function of its parameters, which is what the transforms
differentiate: ``grad(lambda p: loss(functional_call(model, p, (x,))))(params)``.
(PyTorch: torch/_functorch/functional_call.py.)
"""

_MISSING = object()


def _owner_and_name(module, dotted):
    """``("layer.weight")`` -> (module.layer, "weight")."""
    *path, name = dotted.split(".")
    owner = module
    for part in path:
        owner = getattr(owner, part)
    return owner, name


def _swap(owner, name, value):
    """Put ``value`` in place of ``owner.name``; return what was there."""
    for store in ("_parameters", "_buffers"):
        table = getattr(owner, store, None)
        if isinstance(table, dict) and name in table:
            old, table[name] = table[name], value
            return old
    old = owner.__dict__.get(name, _MISSING) if hasattr(owner, "__dict__") else _MISSING
    object.__setattr__(owner, name, value)
    return old


def _restore(owner, name, old):
    for store in ("_parameters", "_buffers"):
        table = getattr(owner, store, None)
        if isinstance(table, dict) and name in table:
            table[name] = old
            return
    if old is _MISSING:
        object.__delattr__(owner, name)
    else:
        object.__setattr__(owner, name, old)


def _expected_names(module):
    names = []
    for method in ("named_parameters", "named_buffers"):
        if hasattr(module, method):
            names.extend(name for name, _ in getattr(module, method)())
    return names


def _untied(module, values):
    """``values`` with every name tied to a given one (``self.b = self.a``: one tensor under two
    names) given the same value, as PyTorch's tie_weights=True does; two different values for
    the names of one tensor are refused."""
    names_of = {}                      # id(tensor) -> every name the module has for it
    for method in ("named_parameters", "named_buffers"):
        for name, tensor in getattr(module, method)(remove_duplicate=False):
            names_of.setdefault(id(tensor), set()).add(name)
    tied = {name: names for names in names_of.values() if len(names) > 1 for name in names}
    given = [name for name in values if name in tied]
    for name in given:
        given_too = [other for other in tied[name] if other in values]
        if len(given_too) > 1 and len({id(values[other]) for other in given_too}) != 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(tied[name])}, "
                             "which are tied. Consider using tie_weights=False")
    untied = dict(values)
    for name in given:
        for other in tied[name]:
            untied[other] = values[name]
    return untied


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """``module(*args, **kwargs)`` with its parameters/buffers taken from the given dict(s)."""
    dicts = ([parameter_and_buffer_dicts] if isinstance(parameter_and_buffer_dicts, dict)
             else list(parameter_and_buffer_dicts))
    values, repeated = {}, []
    for table in dicts:
        for name, value in table.items():
            if name in values:
                repeated.append(name)
            values[name] = value
    if repeated:
        raise ValueError(f"{sorted(repeated)} appeared in multiple dictionaries; behavior of "
                         "functional call is ambiguous")
    if tie_weights and hasattr(module, "named_parameters"):
        values = _untied(module, values)
    if strict:
        expected = _expected_names(module)
        unexpected = sorted(name for name in values if name not in expected)     # PyTorch sorts both
        missing = sorted(name for name in expected if name not in values)
        if unexpected or missing:
            lines = [f"Error(s) in reparametrizing for {type(module).__name__}:"]
            if unexpected:
                lines.append("\tUnexpected key(s): " + ", ".join(f"'{n}'" for n in unexpected) + ".")
            if missing:
                lines.append("\tMissing key(s): " + ", ".join(f"'{n}'" for n in missing) + ".")
            raise RuntimeError("\n".join(lines))
    args = () if args is None else (args if isinstance(args, tuple) else (args,))
    swapped = []
    try:
        for name, value in values.items():
            owner, attribute = _owner_and_name(module, name)
            swapped.append((owner, attribute, _swap(owner, attribute, value)))
        return module(*args, **(kwargs or {}))
    finally:
        for owner, attribute, old in reversed(swapped):
            _restore(owner, attribute, old)


def stack_module_state(models):
    """The parameters and buffers of several same-shaped models, each stacked into one tensor.

    Returns two dicts (name -> tensor with a new leading dim, one entry per model):
    the parameters (new leaves that require grad where the originals do) and the
    buffers. With ``vmap(lambda p, b, x: functional_call(base, (p, b), (x,)))``
    they run an ensemble of models in one call (PyTorch's "model ensembling").
    """
    from .. import stack
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if any(type(m) is not type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked_leaf(name, tensors):
        wants_grad = tensors[0].requires_grad
        if any(t.requires_grad != wants_grad for t in tensors):
            raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
        # a new leaf: stacking must not connect the ensemble to the original models' graphs
        return stack([t.detach() for t in tensors]).requires_grad_(wants_grad)

    all_params = [dict(m.named_parameters()) for m in models]
    params = {name: stacked_leaf(name, [p[name] for p in all_params]) for name in all_params[0]}
    all_buffers = [dict(m.named_buffers()) for m in models]
    buffers = {name: stack([b[name] for b in all_buffers]) for name in all_buffers[0]}
    return params, buffers


def replace_all_batch_norm_modules_(root):
    """Make every BatchNorm module in ``root`` stop tracking running statistics (in place).

    PyTorch needs this before vmap over a model with BatchNorm. minigrad has no
    BatchNorm modules, so there is nothing to change: ``root`` is returned as it is.
    """
    return root
