"""Shengji / Tractor (升级, 拖拉机) as a game plug-in: SJN and the tool's JSON, the
engine in :mod:`replay`, the lint, report, store, bots and review of the analyzer."""
