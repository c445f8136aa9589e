"""`blackpoker serve`: the browser app on a local web server (runtime/serve/, docs/play.md)."""

from __future__ import annotations

import errno
from pathlib import Path

import click
from blackpoker.cli.invocation import environment
from blackpoker.cli.options import edition_option, format_option, rules_option, seed_option
from blackpoker.cli.report import option_error
from blackpoker.cli.rule_set import compiled, resolve_rules
from blackpoker.runtime.play.roster import AGENT_CHOICES
from blackpoker.runtime.serve.limits import Limits, served_agent
from blackpoker.runtime.serve.server import App, Defaults, Server


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="0: any free port."
)
@edition_option()
@format_option("play_format")
@rules_option(help_text="A local-rule file: every game plays it.")
@seed_option("The games' seed (default: a random one per game).")
@click.option(
    "--opponent",
    default="random",
    show_default=True,
    help=f"The default agent: one of {AGENT_CHOICES} (N: iterations a decision, at most {Limits().budget}).",
)
def serve(
    host: str,
    port: int,
    edition: str | None,
    format_id: str | None,
    rules: Path | None,
    seed: int | None,
    opponent: str,
) -> None:
    """Play in the browser: against an agent or a person, replays, positions. Ctrl-C stops it."""
    try:
        opponent = served_agent(opponent, Limits())
    except ValueError as error:
        option_error("--opponent", str(error))
    source, _ = resolve_rules(edition, format_id, rules, default="play_format")
    compiled(source)  # now, so a wrong --edition, --format or --rules is said before serving
    app = App(Defaults(source.edition, source.format, rules, seed, opponent), environment())
    try:
        server = Server((host, port), app)
    except OSError as error:
        reason = "the port is in use" if error.errno == errno.EADDRINUSE else error.strerror
        option_error(
            "--port" if error.errno == errno.EADDRINUSE else "--host",
            f"cannot listen on {host}:{port}: {reason}",
        )
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"blackpoker serve: http://{shown}:{server.server_address[1]}/  (Ctrl-C で終了)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("終了しました", err=True)
    finally:
        server.server_close()
