from undercroft.cli import main

raise SystemExit(main())
