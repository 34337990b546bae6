"""L-BFGS: a quasi-Newton method with a short memory (PyTorch: torch/optim/lbfgs.py).

Newton's method steps by ``-H^-1 g`` (H the matrix of second derivatives), and
takes few steps, but H is too big to build for a model. BFGS learns an
approximation of ``H^-1`` from how the gradient changed along the steps taken;
L-BFGS keeps only the last ``history_size`` pairs

    s = the step taken (new x - old x)       y = the change of the gradient it caused

and applies the approximate ``H^-1`` to the gradient with the "two-loop
recursion" (``_two_loop_direction``), never forming a matrix. The step length is
``lr`` (the first step of all is shortened to at most 1 / sum|g|), or, with
``line_search_fn='strong_wolfe'``, found by a line search (``_strong_wolfe``)
that brackets, then zooms in on, a length where the loss fell enough and the
slope flattened enough (the strong Wolfe conditions).

One ``step(closure)`` runs up to ``max_iter`` of these iterations, calling
``closure`` (which computes the loss and its gradients) as often as it needs.
The whole memory is kept as the state of the first parameter, as PyTorch keeps it.
"""
from ..autograd.grad_mode import enable_grad, no_grad
from .optimizer import Optimizer, check_learning_rate


class LBFGS(Optimizer):
    """L-BFGS over all the parameters at once (a single parameter group), one ``step(closure)``
    running up to ``max_iter`` iterations; ``closure()`` must zero the gradients, compute the
    loss, call ``backward()`` and return the loss."""

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        check_learning_rate(lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4      # (1.25 evaluations per iteration, rounded down)
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                        tolerance_change=tolerance_change, history_size=history_size,
                        line_search_fn=line_search_fn)
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    # -- all the parameters seen as one long vector x ----------------------------------------
    def _flat_grad(self):
        """The gradients of all parameters, one after the other, in one 1-d tensor (zeros for a
        parameter without a gradient)."""
        from .._ops.shape import cat
        pieces = [param.new_zeros(param.numel()) if param.grad is None else param.grad.reshape(-1)
                  for param in self._params]
        return cat(pieces, 0)

    def _add_to_params(self, step_size, direction):
        """x <- x + step_size * direction, each parameter taking its own slice of the vector."""
        offset = 0
        for param in self._params:
            count = param.numel()
            param.add_(direction[offset:offset + count].view_as(param), alpha=step_size)
            offset += count

    def _evaluate_at(self, closure, start, step_size, direction):
        """The loss and flat gradient at start + step_size * direction (the parameters are put
        back at ``start`` afterwards): one evaluation of the line search."""
        self._add_to_params(step_size, direction)
        loss = float(closure())
        flat_grad = self._flat_grad()
        for param, value in zip(self._params, start):
            param.copy_(value)
        return loss, flat_grad

    @no_grad()
    def step(self, closure):
        """Run up to ``max_iter`` L-BFGS iterations; returns the loss of the first ``closure()``."""
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        history_size, line_search_fn = group["history_size"], group["line_search_fn"]

        def evaluate():
            with enable_grad():                  # (the closure records, though step does not)
                return closure()

        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        first_loss = evaluate()
        loss = float(first_loss)
        evaluations = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:         # already at a minimum
            return first_loss

        # the memory carried from the previous step() (None at the very first)
        direction, step_size = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag = state.get("H_diag")
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")

        iteration = 0
        while iteration < max_iter:
            iteration += 1
            state["n_iter"] += 1

            # -- the direction: -g at the very first iteration, then -H^-1 g ----------------
            if state["n_iter"] == 1:
                direction = flat_grad.neg()
                old_dirs, old_stps, ro = [], [], []
                h_diag = 1
            else:
                y = flat_grad.sub(prev_flat_grad)            # how the gradient changed ...
                s = direction.mul(step_size)                 # ... over the last step
                ys = y.dot(s)
                if ys > 1e-10:          # (a pair with y.s <= 0 would spoil the curvature: skipped)
                    if len(old_dirs) == history_size:        # forget the oldest pair
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / y.dot(y)       # the scale of the first guess of H^-1
                if "al" not in state:
                    state["al"] = [None] * history_size
                direction = _two_loop_direction(flat_grad, old_dirs, old_stps, ro, h_diag, state["al"])

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            # -- the step length ---------------------------------------------------------------
            if state["n_iter"] == 1:        # the first step of all: at most 1 / sum|g| long
                step_size = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                step_size = lr
            slope = flat_grad.dot(direction)       # how fast the loss falls along the direction
            if slope > -tolerance_change:
                break

            used = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                start = [param.clone() for param in self._params]

                def loss_and_grad(x, t, d):
                    return self._evaluate_at(evaluate, x, t, d)

                loss, flat_grad, step_size, used = _strong_wolfe(
                    loss_and_grad, start, step_size, direction, loss, flat_grad, slope,
                    max_ls=max_eval - evaluations)
                self._add_to_params(step_size, direction)
                at_minimum = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_to_params(step_size, direction)
                at_minimum = False
                if iteration != max_iter:   # (the last iteration's loss is not needed)
                    loss = float(evaluate())
                    flat_grad = self._flat_grad()
                    at_minimum = flat_grad.abs().max() <= tolerance_grad
                    used = 1
            evaluations += used
            state["func_evals"] += used

            # -- when to stop --------------------------------------------------------------------
            if iteration == max_iter or evaluations >= max_eval or at_minimum:
                break
            if direction.mul(step_size).abs().max() <= tolerance_change:     # x hardly moved
                break
            if abs(loss - prev_loss) < tolerance_change:                     # the loss hardly moved
                break

        state.update(d=direction, t=step_size, old_dirs=old_dirs, old_stps=old_stps, ro=ro,
                     H_diag=h_diag, prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return first_loss


def _two_loop_direction(flat_grad, old_dirs, old_stps, ro, h_diag, al):
    """-H^-1 g with H^-1 the L-BFGS approximation built from the pairs (s, y) kept: a first
    loop from the newest pair to the oldest, a scaling by ``h_diag``, a second loop back.
    ``al`` (a list kept in the state, as PyTorch keeps it) receives the first loop's numbers."""
    q = flat_grad.neg()
    for i in reversed(range(len(old_dirs))):
        al[i] = old_stps[i].dot(q) * ro[i]
        q.add_(old_dirs[i], alpha=-al[i])
    r = q.mul(h_diag)
    for i in range(len(old_dirs)):
        be_i = old_dirs[i].dot(r) * ro[i]
        r.add_(old_stps[i], alpha=al[i] - be_i)
    return r


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """Where the cubic through (x1, f1) and (x2, f2) with slopes g1, g2 has its minimum, kept
    within ``bounds`` (the interval between x1 and x2 by default); the middle of the bounds if
    the cubic has no minimum."""
    if bounds is not None:
        low, high = bounds
    else:
        low, high = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if not d2_square >= 0:
        return (low + high) / 2.0
    d2 = d2_square.sqrt()
    if x1 <= x2:
        minimum = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        minimum = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(minimum, low), high)


def _strong_wolfe(loss_and_grad, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """A step length t along d from x satisfying the strong Wolfe conditions: the loss fell by
    at least ``c1 * t * gtd`` (sufficient decrease), and the slope's size shrank to at most
    ``c2 * |gtd|`` (curvature). Returns (loss, flat gradient, t, evaluations used).

    First it walks outwards until an interval [t_prev, t] must hold such a point (bracketing),
    then shrinks that interval with cubic interpolation (zoom)."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = loss_and_grad(x, t, d)
    evaluations = 1
    gtd_new = g_new.dot(d)

    # -- bracketing ------------------------------------------------------------------------
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]       # went too far: a minimum lies
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]       # within
            break
        if abs(gtd_new) <= -c2 * gtd:                                 # both conditions hold
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:                                              # the slope turned upwards
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        # still falling: try further out, between 1.01 t and 10 t
        shortest, longest = t + 0.01 * (t - t_prev), t * 10
        t_prev, t = t, _cubic_minimum(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                      bounds=(shortest, longest))
        f_prev, g_prev, gtd_prev = f_new, g_new.clone(), gtd_new
        f_new, g_new = loss_and_grad(x, t, d)
        evaluations += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:                         # out of evaluations: between 0 and the last t
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    # -- zoom: shrink the bracket around a point satisfying both conditions --------------------
    insufficient_progress = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:     # too small to matter
            break
        t = _cubic_minimum(bracket[0], bracket_f[0], bracket_gtd[0],
                           bracket[1], bracket_f[1], bracket_gtd[1])
        # a trial too close to an end of the bracket (twice, or at it) moves to 10% inside it
        margin = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < margin:
            if insufficient_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - margin
                else:
                    t = min(bracket) + margin
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False

        f_new, g_new = loss_and_grad(x, t, d)
        evaluations += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1

        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low]:
            # not low enough: t becomes the high end
            bracket[high], bracket_f[high] = t, f_new
            bracket_g[high], bracket_gtd[high] = g_new.clone(), gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True                               # both conditions hold at t
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                # the minimum lies on the other side of t: the old low end becomes the high one
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = t, f_new       # t becomes the low end
            bracket_g[low], bracket_gtd[low] = g_new.clone(), gtd_new

    return bracket_f[low], bracket_g[low], bracket[low], evaluations
