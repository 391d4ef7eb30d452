"""Reports: the report model, its renderings (text, Markdown, JSON, HTML), the viewer and its templates, the presets table."""
