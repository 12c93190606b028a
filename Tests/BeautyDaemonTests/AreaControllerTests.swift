import BeautyCore
import BeautyLocalization
import BeautyProtocol
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging
import Testing

@testable import BeautyDaemon
@testable import BeautyProtocol

/// The contact, view, status and backup areas each in a controller of their own, and the session's
/// language the daemon is given (no process-wide one) deciding what it shows and the default currency.
@Suite("Controllers of the contact, agenda, event, status and backup areas; the session language given")
struct AreaControllerTests {
    static let now = instant("2030-01-15 09:00")

    func methods(_ controller: any RequestController) -> Set<BeautyProtocol.Method> {
        var router = RequestRouter()
        controller.addRoutes(to: &router)
        #expect(router.duplicates.isEmpty)
        return Set(router.routes.keys)
    }

    @Test func eachControllerRoutesItsAreasMethodsAndNoOthers() async throws {
        let daemon = try await InProcessDaemon(now: Self.now)
        let parts = daemon.daemon
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let clock = daemon.clock.read
        #expect(
            methods(
                ContactController(
                    contacts: parts.store.contacts, database: parts.store, settings: parts.settings, logger: logger,
                    zone: daemon.zone)) == Set(ContactRPC.methods))
        #expect(
            methods(AgendaController(database: parts.store, clock: clock, zone: daemon.zone)) == ["agenda", "now"])
        #expect(methods(EventController()) == ["subscribe"])
        #expect(
            methods(
                StatusController(
                    database: parts.store, scheduler: parts.scheduler, notifier: daemon.notifier, startedAt: Self.now,
                    socketPath: "in process", clock: clock)) == ["status"])
        #expect(
            methods(
                BackupController(
                    database: parts.store, scheduler: parts.scheduler, logger: logger, clock: clock, zone: daemon.zone))
                == Set(BackupRPC.methods))
        await daemon.stop()
    }

    @Test func theDaemonFollowsTheSessionLanguageItIsGivenAndReadsItAgain() async throws {
        let session = SessionLanguage(.polish)
        let daemon = try await InProcessDaemon(now: Self.now, session: session)
        let polish = Localizer.forLanguage(.polish)
        try #require(polish.language == .polish, "the Polish catalog is installed beside the tests")
        let noCurrency = BudgetAddParams(name: "Szampon", amount: PriceParam(cents: 2_500, currency: nil))
        #expect(try await daemon.call(BudgetRPC.add, noCurrency).amount.currency == "PLN")

        var params = AppointmentAddParams(title: "Fryzjer", start: Self.now.addingTimeInterval(86_400))
        params.reminders = [.at(Self.now.addingTimeInterval(60)), .at(Self.now.addingTimeInterval(120))]
        let appointment = try await daemon.call(AppointmentRPC.add, params).appointment
        let message = ContactMessageParams(id: try #require(appointment.id), template: .confirm)
        func text(_ language: Language) -> String {
            MessageTemplate.confirm.text(
                for: appointment, contact: nil, zone: daemon.zone.current, localizer: .forLanguage(language))
        }
        #expect(try await daemon.call(ContactRPC.message, message).text == text(.polish))
        #expect(await daemon.armed(for: Self.now.addingTimeInterval(60)))
        try await daemon.run(until: Self.now.addingTimeInterval(60))
        let buttons = { (l: Localizer) in [NotificationAction.snooze, .dismiss].map { $0.button(l) } }
        #expect(
            await daemon.notifier.waitForShown(1, timeout: InProcessDaemon.patience).first?.actions == buttons(polish))

        // The user's session switched to Slovak; a reload (SIGHUP) reads it again, and the scheduler reads
        // the live settings at each notification.
        session.refresh(environment: ["LANG": "sk_SK.UTF-8"], managerEnvironment: { nil })
        #expect(try await daemon.call(BudgetRPC.add, noCurrency).amount.currency == "EUR")
        #expect(try await daemon.call(ContactRPC.message, message).text == text(.slovak))
        #expect(text(.slovak) != text(.polish))
        // The pass after the first reminder arms the second before the clock moves on to it.
        #expect(await daemon.armed(for: Self.now.addingTimeInterval(120)))
        try await daemon.run(until: Self.now.addingTimeInterval(120))
        #expect(
            await daemon.notifier.waitForShown(2, timeout: InProcessDaemon.patience).last?.actions
                == buttons(.forLanguage(.slovak)))
        await daemon.stop()
    }
}
