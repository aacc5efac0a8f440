"""The type checker's view of the one import name (see ../README.md): ``tuolaji.scorer`` is
../../scorer and so on, as pyproject.toml's package-dir installs them."""
