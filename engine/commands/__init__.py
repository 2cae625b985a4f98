"""One module per `cogwork` sub-command: NAME, HELP, DESCRIPTION, add_arguments(parser), run(args) -> exit code.

May import: every stage and the public API; nothing imports the commands except `engine.cli`.
"""
