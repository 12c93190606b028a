import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// Runs the scheduler loop as a lifecycle service.
struct SchedulerService: Service {
    let scheduler: Scheduler

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await scheduler.run()
        }
    }
}

/// Pings the systemd watchdog at half its period while the scheduler's actor answers.
struct WatchdogService: Service {
    let interval: Duration
    let scheduler: Scheduler

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                _ = await scheduler.armedDeadline()  // proves the actor is not stuck
                Systemd.notify("WATCHDOG=1")
                // Cancelled at shutdown: end quietly (a thrown CancellationError would fail the
                // ServiceGroup, skip STOPPING=1 and exit 1 on every stop under systemd).
                try? await EventLoopConcurrency.sleep(for: interval)
            }
        }
    }
}

/// SIGHUP re-reads the configuration file; a bad file is reported and the old settings stay.
/// It also announces readiness: services start after the group traps SIGTERM and SIGINT, and this
/// one announces only once SIGHUP is trapped too, so no signal sent after "ready" meets the default
/// action (which would kill beautyd without closing the database).
struct ReloadService: Service {
    let configPath: String
    let settings: SettingsBox
    let scheduler: Scheduler
    let sync: SyncCoordinator
    let logLevel: LogLevelBox
    let levelFromFlag: Logger.Level?
    let logger: Logger
    let announceReady: @Sendable () -> Void

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: [.sighup])
        announceReady()
        await cancelWhenGracefulShutdown {
            for await _ in signals {
                Systemd.notify("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())")
                // Under systemd this waits for systemctl (2 s at most), once a reload.
                let language = settings.session.refresh()
                logger.info("session language: \(language.rawValue)")
                do {
                    let (config, warnings) = try DaemonConfig.load(path: configPath)
                    warnings.forEach { logger.warning("\($0)") }
                    settings.config = config
                    logLevel.level = levelFromFlag ?? config.logLevel
                    await scheduler.configReloaded()
                    await sync.adoptConfiguredAccounts()
                    sync.notice()
                    logger.notice("configuration reloaded from \(configPath)")
                } catch {
                    logger.error("configuration not reloaded, keeping the old one: \(error)")
                }
                Systemd.notify("READY=1")
            }
        }
    }

    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }
}
