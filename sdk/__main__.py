"""``python -m sdk module:Class --server URL --token-file F``: run a bot (see ``sdk.launch``)."""

from sdk.launch import main

main()
