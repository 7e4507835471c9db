"""The API starts on a build without the compiled solver (a machine with no C compiler):
only the search bot needs it, and only when it first searches."""

import subprocess
import sys
import textwrap

# Runs in a fresh interpreter: a finder ahead of every other refuses the extension.
_REFUSE = textwrap.dedent(
    """
    import sys
    from importlib.abc import MetaPathFinder

    class NoSolver(MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "workers.bots._solver":
                raise ImportError("no compiled solver on this build")
            return None

    sys.meta_path.insert(0, NoSolver())
    """
)


def _run(body: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _REFUSE + textwrap.dedent(body)], capture_output=True, text=True, timeout=120
    )


def test_the_app_builds_and_the_bots_import_without_the_solver():
    done = _run(
        """
        from server.web.app import create_app
        import workers.bots

        # nothing listens on port 1: the factory must not need Redis to build the app either
        app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0"})
        print("/api/v1/bots" in {rule.rule for rule in app.url_map.iter_rules()}, "workers.bots._solver" in sys.modules)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]


def test_the_refusal_is_real_the_search_itself_needs_the_solver():
    done = _run(
        """
        from workers.bots.search_bot import Solver, layout_for
        try:
            Solver(layout_for(0, True))
        except ImportError as exc:
            print("refused:", exc)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "refused: no compiled solver on this build"
