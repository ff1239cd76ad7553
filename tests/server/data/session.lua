-- Issue 42's Neovim session: headless Neovim (0.7's vim.lsp API) drives `movecheck server` on an example with two
-- misspellings: the diagnostics, settings changed live, every fix applied, completion mid-line in a path whose
-- bracket is still open.  Nothing is written to the disk; what was seen goes to _G.arg_out as JSON.
local out, file, root, python = _G.arg_out, _G.arg_file, _G.arg_root, _G.arg_python
local seen = {}
local id = vim.lsp.start_client({
  name = "movecheck",
  cmd = { python, "-m", "movecheck", "server" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "movecheck" } },
  flags = { debounce_text_changes = 0 },
})
vim.cmd("edit " .. vim.fn.fnameescape(file))
vim.lsp.buf_attach_client(0, id)
local client = vim.lsp.get_client_by_id(id)
local uri = vim.uri_from_bufnr(0)

local function codes()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local lsp = (d.user_data or {}).lsp or {}
    local code = d.code or lsp.code
    if code ~= nil and code ~= vim.NIL then table.insert(found, code) end
  end
  table.sort(found)
  return table.concat(found, ",")
end

local function until_codes(wanted)
  local ok = vim.wait(30000, function() return codes() == wanted end, 20)
  return { ok = ok, codes = codes() }
end

seen.opened = until_codes("MC004,MC004")
client.notify("workspace/didChangeConfiguration", { settings = { movecheck = { ignore = { "MC004" } } } })
seen.ignored = until_codes("")
client.notify("workspace/didChangeConfiguration", { settings = { movecheck = { ignore = vim.NIL } } })
seen.restored = until_codes("MC004,MC004")
local answer = client.request_sync("workspace/executeCommand",
  { command = "movecheck.applyAllFixes", arguments = { uri } }, 20000, 0)
seen.command_error = answer and answer.err and tostring(answer.err.message) or vim.NIL
vim.wait(5000, function() return not vim.api.nvim_buf_get_lines(0, 0, -1, false)[40]:find("Ukriane") end, 20)
seen.fixed_lines = vim.api.nvim_buf_get_lines(0, 39, 41, false)
seen.after_fix = until_codes("")
-- completion mid-line: the bracket of a path left open
local row = 36  -- 0-based: "    path: [Ukraine S.S.R., Caucasus]"
local typed = "    path: [Bulgaria Romania, Ukraine S.S.R., Cau"
vim.api.nvim_buf_set_lines(0, row, row + 1, false, { typed })
vim.wait(300)
local completion = client.request_sync("textDocument/completion",
  { textDocument = { uri = uri }, position = { line = row, character = #typed } }, 20000, 0)
local items = (completion and completion.result) or {}
if items.items ~= nil then items = items.items end
table.sort(items, function(a, b) return (a.sortText or a.label) < (b.sortText or b.label) end)
seen.completion = {}
for k = 1, math.min(6, #items) do table.insert(seen.completion, items[k].label) end
seen.completion_count = #items
vim.fn.writefile({ vim.fn.json_encode(seen) }, out)
vim.lsp.stop_client(id)
vim.cmd("qa!")
