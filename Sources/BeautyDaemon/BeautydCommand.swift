import ArgumentParser
import BeautyCore
import BeautyHelpText
import BeautyLocalization
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging
import ServiceLifecycle

/// `beautyd`: the long-running daemon.
public struct BeautydCommand: AsyncParsableCommand {
    /// `--help` in the language of this process's environment, as beautyctl's: the person reading it
    /// typed the command (reminders follow `[ui] language` and the session instead).
    static let l = Localizer.current

    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "beautyd",
            abstract: l.tr("The beautyd daemon: keeps appointments and fires desktop reminders on time."),
            discussion: l.tr(
                """
                Normally started by systemd (systemctl --user start beautyd) or by hand for a session.
                Files (XDG base directories):
                  config    $XDG_CONFIG_HOME/beautyd/config.toml   (see config/beautyd.toml)
                  database  $XDG_DATA_HOME/beautyd/beautyd.sqlite
                  socket    $XDG_RUNTIME_DIR/beautyd/beautyd.sock
                Signals: SIGTERM/SIGINT stop gracefully, SIGHUP reloads the configuration.
                """),
            version: BeautyVersion.current)
    }

    @Option(help: ArgumentHelp(Self.l.tr("Configuration file."), valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp(Self.l.tr("SQLite database file."), valueName: "path"))
    var database: String?

    @Option(
        help: ArgumentHelp(Self.l.tr("Unix socket to listen on (ignored under socket activation)."), valueName: "path"))
    var socket: String?

    @Option(
        help: ArgumentHelp(
            Self.l.tr("trace, debug, info, notice, warning, error or critical (overrides the config)."),
            valueName: "level"))
    var logLevel: String?

    @ArgumentParser.Flag(
        help: ArgumentHelp(
            Self.l.tr(
                "Copy what is readable of a damaged database into a new one, keep the damaged file beside it, and exit."
            )))
    var recover = false

    public init() {}

    public mutating func validate() throws {
        if let logLevel, Logger.Level(rawValue: logLevel.lowercased()) == nil {
            throw ValidationError(
                Self.l.tr(
                    "--log-level: '%s' is not one of %s", logLevel,
                    Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")))
        }
    }

    public func run() async throws {
        Self.prepareProcess()
        let paths = DaemonPaths.resolve(config: config, database: database, socket: socket)
        let loaded: (DaemonConfig, warnings: [String])
        do {
            loaded = try DaemonConfig.load(path: paths.config)
        } catch {
            FileHandle.standardError.write(Data("beautyd: bad configuration: \(error)\n".utf8))
            throw ExitCode(78)  // EX_CONFIG
        }
        let flagLevel = logLevel.flatMap { Logger.Level(rawValue: $0.lowercased()) }
        let level = LogLevelBox(flagLevel ?? loaded.0.logLevel)
        DaemonLogging.bootstrap(level: level)
        let logger = Logger(label: "beautyd")
        loaded.warnings.forEach { logger.warning("\($0)") }
        if !EventLoopConcurrency.installed {
            logger.warning(
                "Swift concurrency runs on libdispatch's thread pool, whose monitor wakes the daemon every second")
        }

        do {
            if recover { return try DatabaseRecoveryRun.run(paths: paths, explicitDatabase: database != nil) }
            try await serve(paths: paths, config: loaded.0, level: level, flagLevel: flagLevel, logger: logger)
        } catch let refusal as DatabaseRefusal {
            throw Self.refuseStart(refusal, status: refusal.exitCode, logger: logger)
        } catch  where error is InstanceLock.Held || error is ResourceLimits.TooLow || error is PrivateDirectory.Refused
        {
            throw Self.refuseStart(error, status: 1, logger: logger)
        }
    }

    /// A start that cannot go on: one line in the log (English) and on stderr (in the language of
    /// whoever started it), and the exit status for it.
    private static func refuseStart(_ error: any Error, status: Int32, logger: Logger) -> ExitCode {
        logger.critical("\(error)")
        let shown =
            switch error {
            case let refused as PrivateDirectory.Refused: refused.text.rendered(l)
            case let held as InstanceLock.Held: held.text.rendered(l)
            default: "\(error)"
            }
        FileHandle.standardError.write(Data("beautyd: \(shown)\n".utf8))
        return ExitCode(status)
    }

    private func serve(
        paths: DaemonPaths, config: DaemonConfig, level: LogLevelBox, flagLevel: Logger.Level?,
        logger: Logger
    ) async throws {
        let activationFD = Systemd.activationSocket()
        let claim = try InstanceClaim.claim(
            paths: paths, explicitSocket: socket != nil, explicitDatabase: database != nil,
            activated: activationFD != nil)
        defer { withExtendedLifetime(claim) {} }
        let maximumConnections = try ResourceLimits.connectionsThatFit()

        let store = try AppDatabase.open(path: paths.database, version: BeautyVersion.current)
        let daemon = try makeDaemon(
            store: store, notifier: LibNotifyNotifier(logger: logger), config: config,
            session: SessionLanguage(Language.current),
            socket: activationFD == nil ? paths.socket : "fd \(activationFD!) from systemd socket activation",
            logger: logger)
        let server = try await SocketServer(
            path: paths.socket, activationFD: activationFD, maximumConnections: maximumConnections,
            requests: daemon.requests, hub: daemon.hub, logger: logger)

        var services: [any Service] = [
            server, SchedulerService(scheduler: daemon.scheduler), SyncService(sync: daemon.sync),
            ReloadService(
                configPath: paths.config, settings: daemon.settings, scheduler: daemon.scheduler, sync: daemon.sync,
                logLevel: level,
                levelFromFlag: flagLevel, logger: logger
            ) {
                let appointments = (try? store.appointments.count()) ?? 0
                logger.notice(
                    "beautyd \(BeautyVersion.current) ready: \(appointments) appointments, database \(paths.database)")
                Systemd.notify("READY=1\nSTATUS=serving \(appointments) appointments\nMAINPID=\(getpid())")
            },
        ]
        if let interval = Systemd.watchdogPingInterval() {
            services.append(WatchdogService(interval: interval, scheduler: daemon.scheduler))
        }
        let group = ServiceGroup(
            configuration: .init(
                services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        Systemd.notify("STOPPING=1\nSTATUS=stopping")
        daemon.hub.finishAll()
        logger.notice("beautyd stopped")
    }

    /// Files private to the user, signals usable even if the parent blocked them, and a SIGABRT that ends it.
    static func prepareProcess() {
        umask(0o077)
        Heap.mapLargeBlocks()
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGABRT] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
        Systemd.endOnAbort()
    }
}

extension BeautydCommand {
    /// Parses the command line and runs the async `run()`. (A bare `main()` from top-level code can
    /// bind to ArgumentParser's synchronous overload, which never runs an async command.) Help and usage
    /// errors come out as ArgumentParser's, with its own words in the language of `--help`'s option texts.
    public static func runAsMain() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            ToolkitText(l).exit(self, withError: error)
        }
    }
}
