from undercroft.cli.main import main

raise SystemExit(main())
