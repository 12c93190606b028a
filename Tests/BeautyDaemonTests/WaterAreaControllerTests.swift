@testable import BeautyDaemon
import BeautyProtocol
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging
import Testing

/// Each area's controller routes its own methods and no other.
@Suite struct MeasurementWaterTipControllerTests {
    static func routes(_ controller: some RequestController) -> Set<Method> {
        var router = RequestRouter()
        controller.addRoutes(to: &router)
        #expect(router.duplicates.isEmpty, "registered more than once: \(router.duplicates)")
        return Set(router.routes.keys)
    }

    @Test("measurements, water and tips each route their own methods")
    func measurementWaterAndTipRoutes() throws {
        let store = try AppDatabase.inMemory()
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let daemon = try makeDaemon(
            store: store, notifier: RecordingNotifier(), config: DaemonConfig(), session: SessionLanguage(.english),
            socket: "in process", logger: logger)
        let zone = SettableZone(TimeZone(identifier: "Europe/Warsaw")!)
        let measurement = Self.routes(
            MeasurementController(measurements: store.measurements, logger: logger, clock: Date.init, zone: zone))
        let water = Self.routes(
            WaterController(
                water: store.water, planner: store, scheduler: daemon.scheduler, logger: logger, clock: Date.init,
                zone: zone))
        let tip = Self.routes(TipController())
        #expect(measurement == ["measure.add", "measure.list", "measure.count", "measure.clear", "measure.chart"])
        #expect(
            water == [
                "water.add", "water.total", "water.goal", "water.remind", "water.import", "water.list", "water.edit",
                "water.rm",
            ])
        #expect(tip == ["tips", "tip.random"])
    }
}
