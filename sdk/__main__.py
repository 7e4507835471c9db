"""``python -m sdk module:Class --server URL --token T``: run a bot (see ``sdk.launch``)."""

from sdk.launch import main

main()
