"""One module per `cogwork` sub-command: NAME, HELP, DESCRIPTION, add_arguments(parser), run(args) -> exit code."""
