// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "beautyd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "beautyd", targets: ["beautyd"]),
        .executable(name: "beautyctl", targets: ["beautyctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The user's language: which one (the environment, as gettext decides), the .po catalogs
        // (read as written, see docs/TRANSLATING.md), CLDR plural forms, numbers and money.
        .target(name: "BeautyLocalization", resources: [.copy("po")]),
        // Domain types, validation, parsing and the pure schedule planner: Foundation only.
        .target(name: "BeautyCore", dependencies: ["BeautyLocalization"]),
        // SQLite persistence through GRDB: migrations, records, queries.
        .target(
            name: "BeautyStore",
            dependencies: ["BeautyCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // System libraries.
        .systemLibrary(
            name: "CLibNotify", pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev"])]
        ),
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // <sys/timerfd.h> is not exposed by Swift's Glibc module.
        .target(name: "CTimerFD"),
        .target(name: "CMalloc"),
        // Desktop notifications: the Notifier protocol and its libnotify implementation.
        .target(
            name: "BeautyNotify",
            dependencies: ["BeautyCore", "CLibNotify", .product(name: "Logging", package: "swift-log")]
        ),
        // The CalDAV client: discovery, sync-collection, multiget and conditional writes over HTTPS.
        .target(
            name: "BeautyCalDAV",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // JSON-RPC wire types shared by daemon and client.
        .target(name: "BeautyProtocol", dependencies: ["BeautyCore"]),
        // swift-argument-parser's own words (help headings, usage errors) in the user's language, for
        // both programs' command lines.
        .target(
            name: "BeautyHelpText",
            dependencies: ["BeautyLocalization", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The daemon: socket server, request handler, scheduler driver, systemd glue.
        .target(
            name: "BeautyDaemon",
            dependencies: [
                "BeautyCore", "BeautyLocalization", "BeautyHelpText", "BeautyStore", "BeautyNotify", "BeautyProtocol",
                "BeautyCalDAV", "CSystemd", "CTimerFD", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // The beautyctl commands.
        .target(
            name: "BeautyCLI",
            dependencies: [
                "BeautyCore", "BeautyLocalization", "BeautyHelpText", "BeautyProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "beautyd", dependencies: ["BeautyDaemon", "BeautyLocalization"]),
        .executableTarget(name: "beautyctl", dependencies: ["BeautyCLI", "BeautyLocalization"]),
        // What the test targets share: the package's files and built programs, child processes,
        // short temporary directories, a JSON-RPC socket client, the end-to-end stack and its
        // fixtures (a D-Bus bus config, the test notification server), the iCalendar fixtures.
        .target(
            name: "BeautyTestSupport",
            dependencies: ["BeautyCore", "BeautyProtocol", "BeautyNotify"],
            path: "Tests/BeautyTestSupport",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "BeautyCoreTests", dependencies: ["BeautyCore", "BeautyTestSupport"]),
        // The catalogs against the sources and GNU gettext, plural rules, formats.
        .testTarget(
            name: "BeautyLocalizationTests", dependencies: ["BeautyLocalization", "BeautyCore", "BeautyTestSupport"]),
        .testTarget(name: "BeautyStoreTests", dependencies: ["BeautyCore", "BeautyStore"]),
        // beautyctl in process: its commands against the daemon's request handler (an in-memory store,
        // a recording notifier), their output and exit codes; swift-argument-parser's texts in the user's language.
        .testTarget(
            name: "BeautyCLITests",
            dependencies: [
                "BeautyCLI", "BeautyHelpText", "BeautyLocalization", "BeautyDaemon", "BeautyProtocol", "BeautyStore",
                "BeautyTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The CalDAV client against real Radicale and Xandikos servers on loopback.
        .testTarget(name: "BeautyCalDAVTests", dependencies: ["BeautyCalDAV", "BeautyCore", "BeautyTestSupport"]),
        .testTarget(
            name: "BeautyNotifyTests",
            dependencies: ["BeautyNotify", "CLibNotify", .product(name: "Logging", package: "swift-log")]
        ),
        // The wire: docs/PROTOCOL.md against a daemon, the method table against the router.
        .testTarget(
            name: "BeautyProtocolTests",
            dependencies: [
                "BeautyDaemon", "BeautyProtocol", "BeautyStore", "BeautyTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The daemon in process: its rules with a recording notifier and an injected clock and zone;
        // its configuration, timer and zone file; the socket's line splitter under NIO's decoder verifier.
        .testTarget(
            name: "BeautyDaemonTests",
            dependencies: [
                "BeautyDaemon", "BeautyProtocol", "BeautyCalDAV", "BeautyCore", "BeautyLocalization", "BeautyStore",
                "BeautyNotify", "BeautyTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ]
        ),
        // The systemd contract: the unit files, socket activation, sd_notify, with the real binary.
        .testTarget(
            name: "BeautySystemdTests",
            dependencies: ["BeautyProtocol", "BeautyTestSupport"]
        ),
        // Real processes: what a user meets through the socket, beautyctl, the bus and the desktop.
        .testTarget(
            name: "BeautyEndToEndTests",
            dependencies: ["BeautyCore", "BeautyProtocol", "BeautyTestSupport"]
        ),
    ]
)
