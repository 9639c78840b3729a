"""Every module or function named by a string — the variant registries' runners, the benchmark's
problems, main.py's sub-commands — resolves to something of the shape its caller uses. The import
contracts cannot see these imports, so a renamed module or function would otherwise only show when
someone picks that variant, problem or command."""

import importlib
import inspect

import pytest

import main
from engine.apsp.registry import REGISTRY as APSP
from engine.bench.problems import PROBLEMS, problem
from engine.mst.registry import REGISTRY as MST
from engine.registry import load_function
from engine.sssp.registry import REGISTRY as SSSP

# what each family's ``Variant.run`` passes its runner: (w), (graph, sources), (graph)
RUNNER_ARGS = {"apsp": 1, "sssp": 2, "mst": 1}
REGISTRIES = {"apsp": APSP, "sssp": SSSP, "mst": MST}
# what ``python main.py bench`` and the benchmark window call on a problem module
PROBLEM_FUNCTIONS = ("variants", "add_arguments", "options", "benchmark", "format_table",
                     "registry", "plan_size")


def takes(fn, n: int) -> bool:
    """``fn`` can be called with ``n`` positional arguments."""
    try:
        inspect.signature(fn).bind(*range(n))
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("family,variant", [(f, v) for f, r in REGISTRIES.items() for v in r],
                         ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_variant_runner_string_names_a_function_of_the_family_shape(family, variant):
    run = load_function(variant.runner)
    assert callable(run) and takes(run, RUNNER_ARGS[family]), variant.runner
    buffer = getattr(variant, "input_buffer", None)
    if buffer:
        assert takes(load_function(buffer), 1), buffer   # input_array(n)


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_every_benchmark_problem_string_names_a_module_with_the_problem_interface(name):
    module = problem(name)
    assert isinstance(module.TITLE, str) and module.DEFAULT_SIZES
    missing = [f for f in PROBLEM_FUNCTIONS if not callable(getattr(module, f, None))]
    assert not missing, f"{PROBLEMS[name]} lacks {missing}"


@pytest.mark.parametrize("command", sorted(main.COMMANDS))
def test_every_main_command_string_names_a_module_with_add_arguments_and_run(command):
    module = importlib.import_module(main.COMMANDS[command][0])
    assert takes(module.add_arguments, 1) and takes(module.run, 1), main.COMMANDS[command][0]
