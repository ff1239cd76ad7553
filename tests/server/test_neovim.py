"""End to end with a real editor: Neovim headless, its built-in LSP client (0.7's ``vim.lsp.start_client``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs the extra movecheck[server]")

ROOT = Path(__file__).resolve().parents[2]
TYPO = ROOT / "examples" / "aa" / "orders" / "variants" / "mc004-typo.yaml"
NVIM = shutil.which("nvim")

LUA = r"""
local out, file, root, python = _G.arg_out, _G.arg_file, _G.arg_root, _G.arg_python
local id = vim.lsp.start_client({
  name = "movecheck",
  cmd = { python, "-m", "movecheck", "server" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "movecheck" } },
})
vim.cmd("edit " .. vim.fn.fnameescape(file))
vim.lsp.buf_attach_client(0, id)
local done = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(found, { line = d.lnum, col = d.col, end_line = d.end_lnum, end_col = d.end_col,
                        code = d.code or lsp.code, message = d.message, severity = d.severity })
end
vim.fn.writefile({ vim.fn.json_encode({ done = done, diagnostics = found }) }, out)
vim.lsp.stop_client(id)
vim.cmd("qa!")
"""


@pytest.mark.slow
@pytest.mark.skipif(NVIM is None, reason="nvim is not installed (apt-get install neovim: Debian's 0.7 is enough)")
def test_neovim_shows_the_diagnostics_check_gives(tmp_path: Path) -> None:
    script = tmp_path / "client.lua"
    out = tmp_path / "diagnostics.json"
    script.write_text(LUA)
    setup = (f"lua _G.arg_out={json.dumps(str(out))} _G.arg_file={json.dumps(str(TYPO))} "
             f"_G.arg_root={json.dumps(str(ROOT))} _G.arg_python={json.dumps(sys.executable)}")
    env = {**os.environ, "MOVECHECK_LANG": "en", "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    subprocess.run([str(NVIM), "--headless", "--clean", "-c", setup, "-c", f"luafile {script}"],
                   cwd=ROOT, env=env, timeout=120, check=True, capture_output=True, stdin=subprocess.DEVNULL)
    shown = json.loads(out.read_text())
    assert shown["done"] is True
    relative = str(TYPO.relative_to(ROOT))
    check = subprocess.run([sys.executable, "-m", "movecheck", "check", "--format", "json", relative], cwd=ROOT,
                           capture_output=True, text=True)
    expected = [f for f in json.loads(check.stdout)["findings"] if f["file"].endswith(TYPO.name)]
    got = sorted(shown["diagnostics"], key=lambda d: (d["line"], d["col"]))
    assert [(d["line"] + 1, d["col"] + 1, d["code"], d["message"]) for d in got] == [
        (f["line"], f["column"], f["code"], f["message"]) for f in expected]
    assert [(d["line"], d["end_col"] - d["col"]) for d in got] == [(39, len("Ukriane S.S.R.")), (40, len("fihgter"))]
    assert {d["severity"] for d in got} == {1}  # vim.diagnostic.severity.ERROR


SESSION = Path(__file__).resolve().parent / "data" / "session.lua"


@pytest.mark.slow
@pytest.mark.skipif(NVIM is None, reason="nvim is not installed (apt-get install neovim: Debian's 0.7 is enough)")
def test_a_neovim_session_changes_settings_live_applies_every_fix_and_completes_mid_line(tmp_path: Path) -> None:
    """Issue 42's "Done when": a real editor shows the diagnostics, a settings change live, a fix applied and
    completion mid-line (the init script is tests/server/data/session.lua)."""
    out = tmp_path / "session.json"
    setup = (f"lua _G.arg_out={json.dumps(str(out))} _G.arg_file={json.dumps(str(TYPO))} "
             f"_G.arg_root={json.dumps(str(ROOT))} _G.arg_python={json.dumps(sys.executable)}")
    env = {**os.environ, "MOVECHECK_LANG": "en", "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    env.pop("MOVECHECK_SERVER_DELAY", None)  # the adaptive pause
    subprocess.run([str(NVIM), "--headless", "--clean", "-c", setup, "-c", f"luafile {SESSION}"],
                   cwd=ROOT, env=env, timeout=180, check=True, capture_output=True, stdin=subprocess.DEVNULL)
    seen = json.loads(out.read_text())
    assert seen["opened"] == {"ok": True, "codes": "MC004,MC004"}
    assert seen["ignored"] == {"ok": True, "codes": ""}  # ignore: [MC004] from didChangeConfiguration
    assert seen["restored"] == {"ok": True, "codes": "MC004,MC004"}
    assert seen["command_error"] is None
    assert seen["fixed_lines"] == ["    path: [Bulgaria Romania, Ukraine S.S.R., Caucasus]", "  - units: {fighter: 1}"]
    assert seen["after_fix"] == {"ok": True, "codes": ""}
    assert seen["completion_count"] > 6
    assert set(seen["completion"]) == {"16 Sea Zone", "Belorussia", "Bulgaria Romania", "Caucasus", "Poland",
                                       "West Russia"}  # the neighbours of Ukraine S.S.R. first
