"""`cogwork lsp` end to end: a pytest-lsp client talking to the real server (`python -m engine.cli lsp`)
over stdio, on the shipped Raising Robots pack and on a broken copy of it."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from engine.lint.run import lint  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "content" / "raising-robots"
HANG_GUARD = 120        # seconds: a wait that never ends fails instead of hanging the suite (not a timing check)


def _server_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of Raising Robots with a misspelt zone in a condition and a misspelt procedure in an effect."""
    pack = tmp_path_factory.mktemp("lsp") / "raising-robots"
    shutil.copytree(SHIPPED, pack)
    procedures = pack / "procedures.yaml"
    text = procedures.read_text(encoding="utf-8")
    procedures.write_text(text.replace('effect: "call reuse_robots"', 'effect: "call reuse_robot"')
                          .replace("count(robot_box) > 0", "count(robot_bx) > 0"), encoding="utf-8")
    return pack


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "engine.cli", "lsp"], server_env=_server_env()))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(),
                                                             root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


def uri(path: Path) -> str:
    return path.resolve().as_uri()


def find(path: Path, text: str, nth: int = 0) -> lsp.Position:
    """The position of the `nth` occurrence of `text` in a file (0-based, as the protocol counts)."""
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        col = line.find(text)
        while col >= 0:
            if seen == nth:
                return lsp.Position(number, col)
            seen += 1
            col = line.find(text, col + 1)
    raise AssertionError(f"{text!r} not in {path}")


def opened(client: LanguageClient, path: Path) -> None:
    if uri(path) not in client.opened:
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
            uri(path), "yaml", 1, path.read_text(encoding="utf-8"))))
        client.opened.add(uri(path))


async def diagnostics_until(client: LanguageClient, path: Path,
                            done: Callable[[list[lsp.Diagnostic]], bool]) -> list[lsp.Diagnostic]:
    async def wait() -> list[lsp.Diagnostic]:
        while uri(path) not in client.diagnostics or not done(client.diagnostics[uri(path)]):
            await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return client.diagnostics[uri(path)]
    return await asyncio.wait_for(wait(), HANG_GUARD)


def at(path: Path, position: lsp.Position) -> dict:
    """The fields of a request about one position of a file."""
    return {"text_document": lsp.TextDocumentIdentifier(uri(path)), "position": position}


@pytest.fixture(autouse=True)
def _opened_set(client: LanguageClient) -> None:
    if not hasattr(client, "opened"):
        client.opened = set()     # type: ignore[attr-defined]


# ---------------------------------------------------------------- diagnostics


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostics_are_lints_findings_with_codes_positions_and_hints(client: LanguageClient,
                                                                            broken: Path) -> None:
    path = broken / "procedures.yaml"
    expected = sorted((d.code, d.line, d.col, d.hint) for d in lint(broken)
                      if d.file == "raising-robots/procedures.yaml")
    assert [code for code, *_ in expected] == ["REF001", "REF001"]
    opened(client, path)
    found = await diagnostics_until(client, path, lambda ds: len(ds) == len(expected))
    got = sorted((str(d.code), d.range.start.line + 1, d.range.start.character + 1,
                  d.message.split("hint: ")[1] if "hint: " in d.message else None) for d in found)
    # the position is the misspelt name itself (lint reports `call reuse_robot` at `call`)
    assert [(c, line, h) for c, line, _, h in got] == [(c, line, h) for c, line, _, h in expected]
    names = {str(d.code): (d.range.start.character, d.range.end.character) for d in found}
    line = (broken / "procedures.yaml").read_text(encoding="utf-8").splitlines()[expected[1][1] - 1]
    assert line[slice(*names["REF001"])] in ("robot_bx", "reuse_robot")


@pytest.mark.asyncio(loop_scope="module")
async def test_typing_a_fix_clears_the_diagnostic_without_saving(client: LanguageClient, broken: Path) -> None:
    path = broken / "procedures.yaml"
    opened(client, path)
    await diagnostics_until(client, path, lambda ds: len(ds) == 2)
    fixed = find(path, "robot_bx")
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=2, uri=uri(path)),
        [lsp.TextDocumentContentChangePartial(lsp.Range(fixed, lsp.Position(fixed.line, fixed.character + 8)),
                                              "robot_box")]))
    found = await diagnostics_until(client, path, lambda ds: len(ds) == 1)
    assert "reuse_robot" in found[0].message
    assert "robot_bx" in path.read_text(encoding="utf-8")        # the file on disk is untouched
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(       # back as it was on disk
        lsp.VersionedTextDocumentIdentifier(version=3, uri=uri(path)),
        [lsp.TextDocumentContentChangeWholeDocument(path.read_text(encoding="utf-8"))]))
    await diagnostics_until(client, path, lambda ds: len(ds) == 2)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_clean_shipped_pack_gets_no_diagnostics(client: LanguageClient) -> None:
    path = SHIPPED / "procedures.yaml"
    opened(client, path)
    assert list(await diagnostics_until(client, path, lambda ds: True)) == []


# ---------------------------------------------------------------- code actions


@pytest.mark.asyncio(loop_scope="module")
async def test_did_you_mean_is_a_quick_fix_replacing_the_name(client: LanguageClient, broken: Path) -> None:
    path = broken / "procedures.yaml"
    opened(client, path)
    found = await diagnostics_until(client, path, lambda ds: len(ds) == 2)
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri(path)), found[0].range, lsp.CodeActionContext(found)))
    titles = sorted(a.title for a in actions)
    assert titles == ["Change to 'reuse_robots'", "Change to 'robot_box'"]
    lines = path.read_text(encoding="utf-8").splitlines()
    for action in actions:
        (edit,) = action.edit.changes[uri(path)]
        line = lines[edit.range.start.line]
        fixed = line[:edit.range.start.character] + edit.new_text + line[edit.range.end.character:]
        assert fixed == lines[edit.range.start.line].replace("robot_bx", "robot_box").replace(
            "reuse_robot\"", "reuse_robots\"")


# ---------------------------------------------------------------- hover


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_name_says_what_it_is_and_where(client: LanguageClient) -> None:
    path = SHIPPED / "procedures.yaml"
    result = await client.text_document_hover_async(lsp.HoverParams(**(at(path, find(path, "robot_box", 1)))))
    assert "**zone** `robot_box`" in result.contents.value
    assert "raising-robots/core.yaml:35:" in result.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_dsl_text_is_explains_english_and_its_type(client: LanguageClient) -> None:
    from engine.compile.build import Builder
    from engine.dsl.render import Renderer, threshold_unit
    from engine.dsl.sites import parsed_sites
    from engine.packs.files import load_pack_files

    raw = load_pack_files(SHIPPED)
    pack = Builder(raw).build()
    english = Renderer(pack, threshold_unit((t for _, _, t in parsed_sites(raw)), pack)).text(
        "call reuse_robots", "effect")
    path = SHIPPED / "procedures.yaml"
    call = find(path, "call reuse_robots")
    result = await client.text_document_hover_async(lsp.HoverParams(**(at(path, call))))
    assert english in result.contents.value
    assert "*type:* an effect" in result.contents.value
    when = find(path, "event.counter")
    result = await client.text_document_hover_async(lsp.HoverParams(**(at(path, when))))
    assert "*type:* an expression: true or false" in result.contents.value


# ---------------------------------------------------------------- definition, references, rename


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_jumps_from_a_use_to_the_definition(client: LanguageClient) -> None:
    path = SHIPPED / "procedures.yaml"
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        **(at(path, find(path, "reuse_robots", 1)))))
    assert found.uri == uri(path)
    assert found.range.start == find(path, "reuse_robots:")


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_reaches_into_the_pack_depended_on(client: LanguageClient) -> None:
    expansion = ROOT / "content" / "raising-robots-expansion" / "robots.yaml"
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        **(at(expansion, find(expansion, "duct_tape")))))
    assert found.uri == uri(SHIPPED / "core.yaml")
    assert found.range.start == find(SHIPPED / "core.yaml", "duct_tape")


@pytest.mark.asyncio(loop_scope="module")
async def test_references_list_dsl_and_yaml_uses(client: LanguageClient) -> None:
    core = SHIPPED / "core.yaml"
    found = await client.text_document_references_async(lsp.ReferenceParams(
        **(at(core, find(core, "duct_tape"))), context=lsp.ReferenceContext(include_declaration=True)))
    places = {(Path(lsp_path(loc.uri)).name, loc.range.start.line + 1) for loc in found}
    assert ("core.yaml", 5) in places           # the definition
    assert ("core.yaml", 25) in places          # a YAML list naming it (a zone's `pay`)
    assert ("board.yaml", 115) in places        # DSL: gain 1 duct_tape
    assert ("classes.yaml", 233) in places      # an expression attribute


def lsp_path(file_uri: str) -> str:
    from pygls.uris import to_fs_path
    return to_fs_path(file_uri) or ""


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_a_counter_changes_every_use_and_lint_stays_clean(client: LanguageClient,
                                                                      tmp_path: Path) -> None:
    pack = tmp_path / "raising-robots"
    shutil.copytree(SHIPPED, pack)
    core = pack / "core.yaml"
    position = find(core, "duct_tape")
    ready = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(**(at(core, position))))
    assert ready is not None
    edit = await client.text_document_rename_async(lsp.RenameParams(**(at(core, position)), new_name="tape"))
    for file_uri, edits in edit.changes.items():
        path = Path(lsp_path(file_uri))
        lines = path.read_text(encoding="utf-8").split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            line = lines[e.range.start.line]
            assert line[e.range.start.character:e.range.end.character] == "duct_tape"
            lines[e.range.start.line] = line[:e.range.start.character] + e.new_text + line[e.range.end.character:]
        path.write_text("\n".join(lines), encoding="utf-8")
    assert not any("duct_tape" in p.read_text(encoding="utf-8") for p in pack.glob("*.yaml"))
    assert [d for d in lint(pack, 0) if d.severity == "error"] == []


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_refuses_what_is_not_a_counter_or_component(client: LanguageClient) -> None:
    path = SHIPPED / "procedures.yaml"
    ready = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(
        **(at(path, find(path, "reuse_robots", 1)))))
    assert ready is None


# ---------------------------------------------------------------- completion and formatting


async def complete(client: LanguageClient, path: Path, position: lsp.Position) -> dict[str, lsp.CompletionItem]:
    found = await client.text_document_completion_async(lsp.CompletionParams(**(at(path, position))))
    return {item.label: item for item in found.items}


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_in_dsl_offers_names_functions_and_statements(client: LanguageClient) -> None:
    path = SHIPPED / "procedures.yaml"
    start = find(path, "call reuse_robots")
    items = await complete(client, path, lsp.Position(start.line, start.character))
    assert items["robot_box"].detail == "zone"
    assert items["duct_tape"].detail == "counter"
    assert items["count"].detail.startswith("count(a) -> a number")
    assert items["gain"].detail == "gain expr (NAME | counter_of)"
    procedures = await complete(client, path, lsp.Position(start.line, start.character + len("call ")))
    assert "reuse_robots" in procedures and "robot_box" not in procedures


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_after_a_dot_offers_attributes_and_after_emit_events(client: LanguageClient) -> None:
    path = SHIPPED / "procedures.yaml"
    dot = find(path, "event.counter")
    items = await complete(client, path, lsp.Position(dot.line, dot.character + len("event.")))
    assert "upgraded" in items and "count" not in items and "gain" not in items
    inventors = SHIPPED / "inventors.yaml"
    own = find(inventors, "\"self.upgraded")
    items = await complete(client, inventors, lsp.Position(own.line, own.character + len("\"self.")))
    assert items["requirement"].detail == "cond attribute of inventor" and "count" not in items
    emit = SHIPPED / "flow.yaml"
    position = find(emit, "emit ")
    items = await complete(client, emit, lsp.Position(position.line, position.character + len("emit ")))
    assert "round_end" in items and "robot_box" not in items


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_yaml_keys_comes_from_the_schemas(client: LanguageClient) -> None:
    path = SHIPPED / "procedures.yaml"
    items = await complete(client, path, lsp.Position(find(path, "    on: gained").line, 4))
    assert "effect" in items and "when" in items and "on" in items


@pytest.mark.asyncio(loop_scope="module")
async def test_formatting_is_cogwork_fmt_of_the_unsaved_buffer(client: LanguageClient) -> None:
    from engine.authoring.formatter import format_text

    path = SHIPPED / "inventors.yaml"
    text = path.read_text(encoding="utf-8")
    messy = text.replace("    - id: wendy_watt\n      name: Wendy Watt\n",
                         "    - name: Wendy Watt\n      id: wendy_watt\n")
    assert messy != text and format_text(messy, "content.schema.json") == text
    opened(client, path)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=2, uri=uri(path)),
        [lsp.TextDocumentContentChangeWholeDocument(messy)]))
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        lsp.TextDocumentIdentifier(uri(path)), lsp.FormattingOptions(2, True)))
    assert len(edits) == 1 and edits[0].new_text == text
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=3, uri=uri(path)),
        [lsp.TextDocumentContentChangeWholeDocument(text)]))
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        lsp.TextDocumentIdentifier(uri(path)), lsp.FormattingOptions(2, True)))
    assert not edits


# ---------------------------------------------------------------- on a pack with errors


@pytest.mark.asyncio(loop_scope="module")
async def test_a_broken_pack_still_has_hover_definition_references_and_completion(client: LanguageClient,
                                                                                   broken: Path) -> None:
    path = broken / "procedures.yaml"
    opened(client, path)
    await diagnostics_until(client, path, lambda ds: len(ds) == 2)
    use = find(path, "robot_box")          # `for c in robot_box` in the procedure
    found = await client.text_document_definition_async(lsp.DefinitionParams(**at(path, use)))
    assert found.uri == uri(broken / "core.yaml") and found.range.start == find(broken / "core.yaml", "robot_box")
    hover = await client.text_document_hover_async(lsp.HoverParams(**at(path, use)))
    assert "**zone** `robot_box`" in hover.contents.value and "*type:* an effect" in hover.contents.value
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        **at(path, use), context=lsp.ReferenceContext(include_declaration=False)))
    assert {(Path(lsp_path(r.uri)).name, r.range.start.line) for r in refs} >= {("procedures.yaml", use.line)}
    misspelt = find(path, "robot_bx")
    items = await complete(client, path, lsp.Position(misspelt.line, misspelt.character))
    assert items["robot_box"].detail == "zone"
    nothing = await client.text_document_hover_async(lsp.HoverParams(**at(path, lsp.Position(0, 0))))
    assert nothing is None
