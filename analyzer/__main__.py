"""``python -m analyzer``: the ``shengji`` command line."""

from analyzer.entry import main

if __name__ == "__main__":  # not when a spawned worker process (--cluster local:N) imports this module
    main()
