"""Finding what to draw: the nodes behind some tensors, and what to call them.

``GraphWalk`` visits the backward graph breadth first from the outputs'
``grad_fn``, with an explicit queue (a chain of 100,000 operations needs no
deep recursion) and in the order of ``next_functions`` (so the same graph is
visited in the same order in every run, and gets the same node ids n0, n1, ...).
"""
import collections
import re

from . import _library as lib


# A leaf used by more drawn nodes than this is drawn once per use (see widely_shared_leaves).
# Up to this many, one box with several arrows shows how its gradients add up (the
# lessons' graphs); beyond it, the converging arrows cost Graphviz seconds, then minutes.
SHARED_LEAF_USES = 10


class GraphWalk:
    """The nodes reachable from ``roots``, at most ``max_nodes`` of them.

    nodes:     the Nodes to draw, breadth first from the roots
    edges:     (node, input_index, next_node, output_nr) for every entry of a
               drawn node's next_functions; next_node is None where the input
               needed no gradient
    not_drawn: how many more nodes are reachable beyond ``max_nodes``
    uses:      node -> how many entries of next_functions in the whole graph point to
               it (drawn or not): a leaf's AccumulateGrad is used once per operation
               that took the leaf
    boxes:     how many boxes of backward functions the picture gets: a node each,
               and a widely shared leaf's AccumulateGrad once per use; this is what
               ``max_nodes`` limits (the last nodes drawn may still add their copies)
    """

    def __init__(self, roots, max_nodes=300):
        self.nodes = []
        self.edges = []
        self.not_drawn = 0
        self.uses = collections.Counter()
        self.boxes = 0
        self._drawn_uses = collections.Counter()      # uses by drawn nodes only
        drawn = set()
        skipped = set()
        queue = collections.deque()
        for root in roots:
            if root not in drawn:
                drawn.add(root)
                self.nodes.append(root)
                self.boxes += 1
                queue.append(root)
        while queue:
            node = queue.popleft()
            for input_index, (next_node, output_nr) in enumerate(node.next_functions):
                if node in drawn:
                    self.edges.append((node, input_index, next_node, output_nr))
                if next_node is None:
                    continue
                self.uses[next_node] += 1
                if node in drawn and next_node in drawn:
                    self._count_one_more_use(next_node)
                if next_node in drawn or next_node in skipped:
                    continue
                if self.boxes < max_nodes:
                    drawn.add(next_node)
                    self.nodes.append(next_node)
                    self.boxes += 1
                    self._drawn_uses[next_node] += 1
                else:
                    skipped.add(next_node)      # still walked, only to count it
                queue.append(next_node)
        self.not_drawn = len(skipped)
        self._drawn = drawn

    def _count_one_more_use(self, node):
        """A drawn node is used once more; a leaf used more than SHARED_LEAF_USES times gets copies."""
        self._drawn_uses[node] += 1
        uses = self._drawn_uses[node]
        if lib.is_accumulate_grad(node) and uses > SHARED_LEAF_USES:
            # from one box to one per use: the first SHARED_LEAF_USES uses get theirs now
            self.boxes += SHARED_LEAF_USES if uses == SHARED_LEAF_USES + 1 else 1

    def is_drawn(self, node):
        return node in self._drawn

    def widely_shared_leaves(self):
        """AccumulateGrad nodes that more than SHARED_LEAF_USES drawn nodes send gradients to.

        A parameter reused in a loop (``y = y * w + b``, 1,000 times) would get
        an arrow from every step to one box: Graphviz then needs minutes to lay
        out the crossing arrows. Such a leaf is drawn once per use instead.
        Returns {node: its uses in the whole graph}, for labels like "use 3 of 500".
        """
        return {node: self.uses[node] for node, count in self._drawn_uses.items()
                if count > SHARED_LEAF_USES and lib.is_accumulate_grad(node)}

    def leaves(self):
        """The leaf tensors of the drawn AccumulateGrad nodes, in drawing order."""
        return [node.variable for node in self.nodes if lib.is_accumulate_grad(node)]


class TensorNames:
    """What to call a tensor in a picture: its key in ``names``, or its ``name`` attribute.

    ``names`` maps names to tensors, e.g. ``{'w': w, 'b': b}``. Values that are
    not tensors, and names that start with ``_``, are skipped, so a notebook
    can pass ``names=globals()``.
    """

    def __init__(self, names=None, params=None):
        # params (torchviz's argument, e.g. dict(model.named_parameters())) name tensors the
        # same way; for a tensor in both, its name in ``names`` wins
        pairs = self._pairs(names, "names") + self._pairs(params, "params")
        self.named = []                 # (name, tensor), in the order given
        self._by_tensor = {}            # tensor -> name; tensors hash by identity
        for name, tensor in pairs:
            if not lib.is_tensor(tensor) or str(name).startswith("_"):
                continue
            self.named.append((str(name), tensor))
            self._by_tensor.setdefault(tensor, str(name))

    @staticmethod
    def _pairs(names, argument):
        """(name, tensor) pairs from a dict, or from model.named_parameters()'s pairs."""
        if names is None:
            return []
        if isinstance(names, collections.abc.Mapping):
            return list(names.items())
        if not isinstance(names, (str, list, tuple)) and not lib.is_tensor(names) \
                and isinstance(names, collections.abc.Iterable):
            pairs = list(names)
            if all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) for p in pairs):
                return pairs
        raise TypeError(
            f"{argument} must be a dict from name to tensor, like {argument}={{'w': w}}; "
            f"got {type(names).__name__}")

    def __call__(self, tensor):
        """The tensor's name, or None."""
        if tensor is None:
            return None
        name = self._by_tensor.get(tensor)
        if name is None:
            name = tensor.__dict__.get("name")
        return name if isinstance(name, str) else None


def check_tensors(values, function_name):
    """Raise a clear TypeError unless every value is a minigrad or a PyTorch tensor."""
    if not values:
        raise TypeError(
            f"{function_name}() needs at least one tensor to draw, e.g. {function_name}(loss)")
    for value in values:
        if lib.is_tensor(value):
            continue
        hint = ""
        if isinstance(value, (list, tuple)) and value and all(lib.is_tensor(v) for v in value):
            hint = f" To draw several tensors, pass them one by one: {function_name}(a, b)."
        elif lib.is_node(value):
            hint = f" That is a grad_fn; pass the tensor it belongs to, e.g. {function_name}(loss)."
        raise TypeError(
            f"{function_name}() draws minigrad or PyTorch tensors, but got {lib.describe(value)}."
            + hint)
    return list(values)


def operation_name(node):
    """The forward operation a backward node undoes: MulBackward0 -> 'mul'.

    Custom Functions keep their class name (``Square``); AccumulateGrad has no
    forward operation and keeps its own name.
    """
    forward_class = lib.forward_class(node)
    if forward_class is not None:
        return forward_class.__name__
    name = lib.node_name(node)
    if lib.is_accumulate_grad(node):
        return name
    name = re.sub(r"Backwards?\d*$", "", name)
    # CamelCase -> snake_case: MseLoss -> mse_loss, Log1P -> log1p
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).lower()


output_shape = lib.output_shape


def saved_values(node):
    """What the node saved for backward (None entries dropped), or None once backward freed it."""
    saved = lib.saved_list(node)
    if saved is None:
        return None
    return [(i, value) for i, value in enumerate(saved) if value is not None]


def known_input(node, input_index):
    """For an input that needs no gradient, the saved value that probably is that input.

    Built-in operations save their inputs in the order they take them (MulBackward0
    saves (self, other)), so a saved value at the same position that needs no
    gradient either is that input or tells nothing. Returns the value or None.
    """
    if lib.forward_class(node) is not None:
        return None
    saved = lib.saved_list(node)
    if not saved or input_index >= len(saved):
        return None
    value = saved[input_index]
    if lib.is_tensor(value):
        return value if not value.requires_grad else None
    if isinstance(value, (int, float, bool)):
        return value
    return None
