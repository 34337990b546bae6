"""Nested tuples, lists and dicts of tensors ("pytrees"), flattened and rebuilt.

The function transforms accept such structures wherever PyTorch does (a dict
of parameters, a tuple of inputs, ...): they flatten them into a list of
leaves, work on the leaves, and rebuild the same structure around the results.
(PyTorch: torch/utils/_pytree.py.)
"""


class TreeSpec:
    """The shape of a structure without its leaves: a container type and its children."""

    def __init__(self, kind, context, children):
        self.kind = kind            # tuple, list, dict, or None for a leaf
        self.context = context      # the keys of a dict, None otherwise
        self.children = children

    @property
    def num_leaves(self):
        if self.kind is None:
            return 1
        return sum(child.num_leaves for child in self.children)

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.kind is other.kind
                and self.context == other.context and self.children == other.children)

    def __repr__(self, indent=0):
        if self.kind is None:
            return "*"
        # PyTorch's layout: the first child on the same line, the others on their own lines
        inner = indent + 2
        children = [child.__repr__(inner) for child in self.children]
        joined = (",\n" + " " * inner).join(children)
        return f"TreeSpec({self.kind.__name__}, {self.context}, [{joined}])"


LEAF = TreeSpec(None, None, [])


def tree_flatten(tree):
    """``(leaves, spec)``: the leaves in order, and the structure around them."""
    leaves = []
    spec = _flatten_into(tree, leaves)
    return leaves, spec


def _flatten_into(tree, leaves):
    if isinstance(tree, (tuple, list)):       # (named tuples and torch.return_types too)
        return TreeSpec(type(tree), None, [_flatten_into(item, leaves) for item in tree])
    if isinstance(tree, dict):
        keys = list(tree)
        return TreeSpec(dict, keys, [_flatten_into(tree[key], leaves) for key in keys])
    leaves.append(tree)
    return LEAF


def tree_unflatten(leaves, spec):
    """The structure ``spec`` with ``leaves`` put back in order."""
    iterator = iter(leaves)
    return _build(iterator, spec)


def _build(leaves, spec):
    if spec.kind is None:
        return next(leaves)
    children = [_build(leaves, child) for child in spec.children]
    if spec.kind is dict:
        return dict(zip(spec.context, children))
    if spec.kind in (tuple, list):
        return spec.kind(children)
    return spec.kind(*children)           # a named tuple (or return type) takes its fields one by one


def broadcast_prefix(prefix, spec, error):
    """One value per leaf of ``spec``: ``prefix`` is a leaf for a whole subtree, or the same structure."""
    if not isinstance(prefix, (tuple, list, dict)):
        return [prefix] * spec.num_leaves
    if spec.kind is None or type(prefix) is not spec.kind or len(prefix) != len(spec.children):
        raise error()
    values = []
    items = [prefix[key] for key in spec.context] if spec.kind is dict else list(prefix)
    for item, child in zip(items, spec.children):
        values.extend(broadcast_prefix(item, child, error))
    return values
