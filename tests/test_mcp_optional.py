"""The MCP server is the optional extra ``mcp`` (issue 28 item 1): not a core dependency;
without the SDK ``mtgsolve mcp`` is one clear line and exit code 2, and the MCP tests skip with
a reason. The SDK's absence is simulated by blocking its modules (``sys.modules[name] = None``
makes ``import name`` fail as if it were not installed)."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK_SDK = "import sys; sys.modules['mcp'] = None; sys.modules['mcp_types'] = None; "


def test_mcp_is_an_extra_not_a_core_dependency():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not [d for d in project["dependencies"] if d.split(">")[0].split("=")[0].strip() == "mcp"]
    assert [d for d in project["optional-dependencies"]["mcp"] if d.startswith("mcp")]
    assert ".[test,env,mcp]" in (ROOT / ".ci" / "run").read_text()   # CI runs the MCP tests


def test_mcp_without_the_sdk_is_one_line_exit_2():
    code = BLOCK_SDK + "sys.argv = ['mtgsolve', 'mcp']; from mtgsolve.cli import main; main()"
    cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                        stdin=subprocess.DEVNULL)
    assert cp.returncode == 2, (cp.returncode, cp.stderr)
    assert cp.stdout == ""
    assert cp.stderr.strip().splitlines() == [
        "mcp: the MCP server needs the optional extra 'mcp' (the MCP SDK is not installed): "
        "pip install 'mtgsolve[mcp]'"]


def test_the_rest_of_the_package_works_without_the_sdk():
    code = BLOCK_SDK + ("from mtgsolve.solver.api import Situation; "
                        "s = Situation.from_dict({'format': 'mtgsolve/1', 'players': ['alice', 'bob'], "
                        "'battlefield': {'alice': ['Forest']}}); print(s.query({'kind': 'available_mana'})['bundles'])")
    cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert cp.returncode == 0, cp.stderr
    assert cp.stdout.strip() == "['{G}']"


def test_mcp_tests_skip_with_a_reason_without_the_sdk():
    code = BLOCK_SDK + ("import pytest; sys.exit(pytest.main(['-q', '-rs', '-p', 'no:cacheprovider', "
                        "'tests/test_mcp.py', 'tests/test_mcp_stdio.py']))")
    cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert cp.returncode == 5, cp.stdout[-2000:]   # pytest's "no tests collected": both modules skipped whole
    skipped = [line for line in cp.stdout.splitlines() if line.startswith("SKIPPED [1] tests/test_mcp")]
    assert len(skipped) == 2 and all("the optional extra 'mcp' is not installed" in s for s in skipped), cp.stdout
    assert "passed" not in cp.stdout and "error" not in cp.stdout.lower(), cp.stdout
