from tui_domino.cli import main

raise SystemExit(main())
