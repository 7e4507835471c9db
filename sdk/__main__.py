"""``python -m sdk module:Class --server URL --token T``: run a bot (see ``sdk.launch``)."""

from .launch import main

main()
