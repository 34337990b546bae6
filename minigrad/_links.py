"""Where the course lives on the web.

``REPOSITORY_URL`` is the one place the repository address is written down,
and ``RELEASE`` the git tag of the release that learners get. ``pyproject.toml``
repeats the address under ``[project.urls]`` (a test checks that the two
agree); the Colab badges, the Colab install cell of every notebook and the
Binder badges are all derived from them by the helpers below. Colab and
Binder open the notebooks *of the release* and install the library *of the
same release*, so what a learner reads always matches what runs.

A fork points all of them at itself with ``make set-repo URL=...``
(tools/set_repo.py), which rewrites the two lines below and every notebook.

This module imports nothing from the rest of the package so that tools can
load it straight from its file, without importing numpy or the library.
"""

REPOSITORY_URL = "https://github.com/minigrad-course/minigrad"
RELEASE = "v0.1.0"  # a git tag: "v" + the version in pyproject.toml
DISTRIBUTION = "minigrad-course"  # the name to pip-install; the import name is minigrad
NOTEBOOK_DIR = "notebooks"

_GITHUB = "https://github.com/"


def github_slug(repository_url: str = REPOSITORY_URL) -> str:
    """``"owner/name"`` of a GitHub repository URL."""
    if not repository_url.startswith(_GITHUB):
        raise ValueError(f"not a GitHub repository URL: {repository_url!r}")
    slug = repository_url[len(_GITHUB):].strip("/")
    if slug.endswith(".git"):
        slug = slug[: -len(".git")]
    if slug.count("/") != 1:
        raise ValueError(f"not a GitHub repository URL: {repository_url!r}")
    return slug


# Colab opens a notebook straight from GitHub: COLAB_BASE + "<path in the repo>".
COLAB_BASE = f"https://colab.research.google.com/github/{github_slug()}/blob/{RELEASE}/"
COLAB_BADGE_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"

BINDER_BASE = f"https://mybinder.org/v2/gh/{github_slug()}/{RELEASE}"
BINDER_BADGE_IMAGE = "https://mybinder.org/badge_logo.svg"

# What `pip install` gets on Colab, where the package is not installed yet:
# the tagged release, never a branch that moves under a learner's feet.
PIP_INSTALL_SPEC = f"{DISTRIBUTION}[viz] @ git+{REPOSITORY_URL}@{RELEASE}"


def colab_url(notebook: str) -> str:
    """Colab address of ``notebooks/<notebook>`` in the release."""
    name = notebook.replace("\\", "/").rsplit("/", 1)[-1]
    return f"{COLAB_BASE}{NOTEBOOK_DIR}/{name}"


def colab_badge(notebook: str) -> str:
    """Markdown for an "Open in Colab" badge pointing at ``notebook``."""
    return f"[![Open In Colab]({COLAB_BADGE_IMAGE})]({colab_url(notebook)})"


def binder_url(path: str = NOTEBOOK_DIR) -> str:
    """Binder address that opens JupyterLab on ``path`` (a folder or a file)."""
    return f"{BINDER_BASE}?urlpath=lab/tree/{path}"


def binder_badge(path: str = NOTEBOOK_DIR) -> str:
    """Markdown for a "Launch Binder" badge."""
    return f"[![Binder]({BINDER_BADGE_IMAGE})]({binder_url(path)})"
