"""Where the course lives on the web.

``REPOSITORY_URL`` is the one place the repository address is written down.
``pyproject.toml`` repeats it under ``[project.urls]`` (a test checks that the
two agree); the Colab badges, the Colab install cell of every notebook and the
Binder badge in the README are all derived from it by the helpers below.

This module imports nothing from the rest of the package so that tools can
load it straight from its file, without importing numpy or the library.
"""

REPOSITORY_URL = "https://github.com/minigrad-course/minigrad"
DEFAULT_BRANCH = "main"
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
COLAB_BASE = (
    f"https://colab.research.google.com/github/{github_slug()}/blob/{DEFAULT_BRANCH}/"
)
COLAB_BADGE_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"

BINDER_BASE = f"https://mybinder.org/v2/gh/{github_slug()}/{DEFAULT_BRANCH}"
BINDER_BADGE_IMAGE = "https://mybinder.org/badge_logo.svg"

# What `pip install` gets on Colab, where the package is not installed yet.
PIP_INSTALL_SPEC = f"minigrad[viz] @ git+{REPOSITORY_URL}"


def colab_url(notebook: str) -> str:
    """Colab address of ``notebooks/<notebook>`` on the default branch."""
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
