"""Step-level datasets deskact makes and proves in its own worlds (``deskact datasets ...``)."""
