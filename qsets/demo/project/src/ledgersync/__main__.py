from ledgersync.cli import main

raise SystemExit(main())
