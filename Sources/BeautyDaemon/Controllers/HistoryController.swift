import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// history: what became of doses and reminders, and how faithfully each medication is taken.
struct HistoryController: RequestController {
    let history: HistoryStore
    let clock: @Sendable () -> Date

    func addRoutes(to router: inout RequestRouter) {
        router.register(MedicationRPC.history, list)
    }

    func list(_ p: HistoryParams) throws -> HistoryResult {
        let now = clock()
        let to = p.to ?? now
        let from = p.from ?? to.addingTimeInterval(-30 * 86_400)
        try Validation.range(from: from, to: to, .halfOpen)
        let rows = try history.entries(from: from, to: to, now: now).map {
            HistoryEntry(
                kind: $0.kind == .dose ? .dose : .reminder, id: $0.id, title: $0.title, detail: $0.detail,
                scheduledAt: $0.scheduledAt,
                state: $0.state, confirmedAt: $0.confirmedAt, source: $0.source.map(Self.wire))
        }
        return HistoryResult(
            from: from, to: to, entries: rows, adherence: try history.adherence(now: now).map(Self.wire))
    }

    static func wire(_ source: DoseAnswerSource) -> HistoryEntry.Source {
        switch source {
        case .desktop: .desktop
        case .phone: .phone
        }
    }

    static func wire(_ row: AdherenceRow) -> Adherence {
        Adherence(
            medicationID: row.medicationID, name: row.name, taken7: row.taken7, scheduled7: row.scheduled7,
            taken30: row.taken30, scheduled30: row.scheduled30)
    }
}
