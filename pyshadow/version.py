"""pyshadow's version: one place, read by the CLI, the workspace and export manifests, and the package root."""

__version__ = "0.1.0"
