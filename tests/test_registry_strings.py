"""Every module path written as a string (the variant registries' runners, the benchmark's
problems, main.py's sub-commands) resolves to callables of the shape their caller uses: the
import contracts cannot see these imports, so a moved or renamed module fails here instead."""

import inspect
import typing

import pytest

import main
from engine.apsp.registry import variants as apsp_variants
from engine.bench.problems import PROBLEMS, BenchProblem, problem
from engine.mst.registry import variants as mst_variants
from engine.registry import load_function
from engine.sssp.registry import variants as sssp_variants

# family -> (its variants, the positional arguments its Variant.run passes the runner)
FAMILIES = {"apsp": (apsp_variants(), 1), "sssp": (sssp_variants(), 2), "mst": (mst_variants(), 1)}


def takes(function, count: int) -> bool:
    """Whether ``function`` can be called with ``count`` positional arguments."""
    try:
        inspect.signature(function).bind(*range(count))
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("family", FAMILIES)
def test_every_variant_runner_resolves_to_a_function_of_the_callers_shape(family):
    found, arguments = FAMILIES[family]
    assert found
    for v in found:
        runner = load_function(v.runner)
        assert callable(runner) and takes(runner, arguments), f"{family} {v.name}: {v.runner}"


def test_floyd_warshall_input_buffers_resolve_to_functions_of_n():
    buffers = [v.input_buffer for v in apsp_variants() if v.input_buffer]
    assert buffers
    for spec in buffers:
        assert takes(load_function(spec), 1), spec


def _members(protocol) -> dict:
    """Name -> "function" or "value" for each member a Protocol declares."""
    out = {name: "function" for name, f in vars(protocol).items()
           if inspect.isfunction(f) and not name.startswith("_")}
    return out | {name: "value" for name in typing.get_type_hints(protocol)}


@pytest.mark.parametrize("name", PROBLEMS)
def test_every_benchmark_problem_provides_the_whole_problem_interface(name):
    bench = problem(name)
    for member, kind in _members(BenchProblem).items():
        assert hasattr(bench, member), f"{PROBLEMS[name]} has no {member}"
        if kind == "function":
            declared = [p for p in inspect.signature(getattr(BenchProblem, member)).parameters.values()
                        if p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty][1:]  # not self
            assert takes(getattr(bench, member), len(declared)), f"{PROBLEMS[name]}.{member}"
    assert set(bench.OPTION_FLAGS) >= {o.key for o in bench.OPTIONS}, "an option without its flag"
    assert "check" in bench.COLUMNS


@pytest.mark.parametrize("command", main.COMMANDS)
def test_every_sub_command_module_has_add_arguments_and_run(command):
    import importlib
    module = importlib.import_module(main.COMMANDS[command][0])
    assert takes(module.add_arguments, 1) and takes(module.run, 1), command
