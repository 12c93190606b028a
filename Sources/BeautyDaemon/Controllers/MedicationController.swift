import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// med.*: medications, their schedules and stock.
struct MedicationController: RequestController {
    let medications: MedicationStore
    let history: HistoryStore
    let scheduler: Scheduler
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: local days, and plans made at an add or an edit.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        router.register(MedicationRPC.add, add)
        router.register(MedicationRPC.list, list)
        router.register(MedicationRPC.show) { (p: IDParams) in try detail(p.id) }
        router.register(MedicationRPC.edit, edit)
        router.register(MedicationRPC.remove, remove)
        router.register(MedicationRPC.move, move)
        router.register(MedicationRPC.refill, refill)
    }

    func add(_ p: MedicationAddParams) throws -> MedicationDetail {
        let medication = try Validation.medication(
            Medication(
                name: p.name, dose: p.dose, notes: p.notes, startDate: p.startDate, endDate: p.endDate,
                schedule: p.schedule ?? .none, stock: p.stock, lowStock: p.lowStock, timeZone: p.timeZone))
        let saved = try medications.add(medication, now: clock(), planningIn: zone.current)
        logger.info(
            "medication added: \(saved.name)", metadata: ["item_id": "\(saved.id ?? 0)", "item_kind": "medication"])
        scheduler.wake(.edited)
        return try detail(saved.id!)
    }

    func list(_ p: ListOrderParams) throws -> [Medication] {
        try ListSort.sorted(try medications.all(), sort: p.sort, reverse: p.reverse, supported: [.title]) { m, _ in
            .text(m.name)
        }
    }

    func edit(_ p: MedicationEditParams) throws -> MedicationDetail {
        _ = try medications.update(id: p.id, now: clock(), planningIn: zone.current) { m in
            m = try Validation.medication(edited(m, p))
        }
        scheduler.wake(.edited)
        return try detail(p.id)
    }

    private func edited(_ stored: Medication, _ p: MedicationEditParams) -> Medication {
        var m = stored
        for field in p.clear ?? [] {
            switch field {
            case .dose: m.dose = nil
            case .notes: m.notes = nil
            case .startDate: m.startDate = nil
            case .endDate: m.endDate = nil
            case .stock: m.stock = nil
            case .lowStock: m.lowStock = nil
            case .timeZone: m.timeZone = nil
            }
        }
        if let v = p.name { m.name = v }
        if let v = p.dose { m.dose = v }
        if let v = p.notes { m.notes = v }
        if let v = p.startDate { m.startDate = v }
        if let v = p.endDate { m.endDate = v }
        if let v = p.schedule { m.schedule = v }
        if let v = p.stock { m.stock = v }
        if let v = p.lowStock { m.lowStock = v }
        if let v = p.timeZone { m.timeZone = v }
        return m
    }

    func remove(_ p: IDParams) throws -> Medication {
        let gone = try medications.find(id: p.id)
        try medications.delete(id: p.id)
        scheduler.wake(.edited)
        return gone
    }

    func move(_ p: MedicationMoveParams) throws -> [Medication] {
        try medications.move(id: p.id, to: p.position)
    }

    func refill(_ p: MedicationRefillParams) throws -> Medication {
        _ = try Validation.refill(p.count, onto: nil)
        return try medications.refill(id: p.id, count: p.count, now: clock())
    }

    func detail(_ id: Int64) throws -> MedicationDetail {
        let m = try medications.find(id: id)
        let now = clock()
        let cal = LocalTime.calendar(zone.current)
        let today = cal.startOfDay(for: now)
        let tomorrow = cal.date(byAdding: .day, value: 1, to: today)!
        // A medication pinned with --tz keeps its own wall clock (as the store plans it).
        let zone = m.zone(default: self.zone.current)
        let horizon = now.addingTimeInterval(14 * 86_400)
        // A dose already answered (taken early, skipped ahead) is not next.
        let answered = Set(
            try medications.doses(from: now, to: horizon, medicationID: id).filter { !$0.state.isOpen }.map(
                \.scheduledAt))
        let upcoming = DosePlanner.doses(for: m, from: now, to: horizon, zone: zone).filter { !answered.contains($0) }
        let adherence = try history.adherence(now: now).first { $0.medicationID == id }.map(HistoryController.wire)
        return MedicationDetail(
            medication: m, activeToday: DosePlanner.isActive(m, on: LocalDate(now, in: zone), zone: zone),
            today: try medications.doses(from: today, to: tomorrow, medicationID: id),
            upcoming: Array(upcoming.prefix(10)), adherence: adherence)
    }
}
