import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// agenda and now: views across appointments, doses and water.
struct AgendaController: RequestController {
    /// A view reads several areas: appointments, contacts, medications, doses and water.
    let database: AppDatabase
    let clock: @Sendable () -> Date
    /// The user's zone: a view's days, and the plans of series and doses in it.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        router.register(ViewRPC.agenda, agenda)
        router.register(ViewRPC.now) { (_: NoParams) in try now() }
    }

    func agenda(_ p: AgendaParams) throws -> AgendaResult {
        let from = p.from ?? clock()
        let to = p.to ?? from.addingTimeInterval(7 * 86_400)
        try Validation.range(from: from, to: to, .halfOpen)
        if let limit = p.limit, limit < 0 { throw ValidationError(field: "limit", template: "must not be negative") }
        if let offset = p.offset, offset < 0 {
            throw ValidationError(field: "offset", template: "must not be negative")
        }
        let categories = try ListFilter.values(p.category, p.categories).compactMap { try Validation.category($0) }
        let kinds = ListFilter.values(p.kind, p.kinds)
        // Appointment statuses and dose states; an empty list filters nothing.
        let statuses = try Set(
            (p.status ?? []).map { status in
                if case let .unknown(raw) = status {
                    throw ValidationError(
                        field: "status", template: "'%s' is not one of %s", raw,
                        AgendaStatus.names.joined(separator: ", "))
                }
                return status.text
            })
        let needles = ListFilter.needles(ListFilter.values(p.search, p.searches))
        let contacts = Dictionary(uniqueKeysWithValues: try database.contacts.all().map { ($0.id!, $0) })
        let wantsAppointments = kinds.isEmpty || kinds.contains(.appointment)
        // Medications have no category, so a category filter leaves them out.
        let wantsDoses = (kinds.isEmpty || kinds.contains(.medication)) && categories.isEmpty
        let appointments =
            wantsAppointments ? try database.appointments.forRange(from: from, to: to, ordered: false) : []
        // Unfiltered, the list is shared rather than copied (a full-range agenda has every appointment).
        let matchingAppointments =
            categories.isEmpty && needles.isEmpty
            ? appointments
            : appointments.filter { a in
                ListFilter.category(a.category, matchesAnyOf: categories)
                    && ListFilter.text([a.title, a.notes ?? "", a.address ?? ""], containsAnyOf: needles)
            }
        // A series with more occurrences than one expansion gives stops at its last one: the answer
        // covers [from, that instant) for everything, and says where to go on.
        var nextFrom: Date?
        var matching = matchingAppointments.flatMap { a in
            let starts = AppointmentOccurrences.starts(of: a, from: from, to: to, zone: zone.current)
            if starts.count == AppointmentOccurrences.limit, let last = starts.last {
                nextFrom = min(nextFrom ?? last, last)
            }
            return starts.map {
                AgendaEntry(appointment: a, contactName: a.contactID.flatMap { contacts[$0]?.name }, occurrence: $0)
            }
        }
        if wantsDoses {
            matching += try DoseAgenda(medications: database.medications, zone: zone).entries(
                from: from, to: to, searches: needles)
        }
        if let nextFrom { matching.removeAll { $0.start >= nextFrom } }
        if !statuses.isEmpty { matching.removeAll { !statuses.contains($0.status) } }
        // Stable order: time, then title, then kind and id; a sort asked for keeps it for equal keys.
        matching = Self.inAgendaOrder(matching)
        let prices = Dictionary(matchingAppointments.compactMap { a in a.price.map { (a.id ?? 0, $0) } }) { first, _ in
            first
        }
        matching = try ListSort.sorted(matching, sort: p.sort, reverse: p.reverse, supported: ListSortKey.allCases) {
            e, key in
            SortValue(
                key, title: e.title, time: e.start, category: e.category,
                price: e.kind == .appointment ? prices[e.id] : nil)
        }
        let entries = Array(matching.dropFirst(p.offset ?? 0).prefix(p.limit ?? Int.max))
        return AgendaResult(from: from, to: to, total: matching.count, entries: entries, nextFrom: nextFrom)
    }

    /// Entries by time, then title, then kind and id. Their indices are sorted, not the entries: moving
    /// a hundred thousand entries of a dozen fields each through a merge sort took a fifth of a full-range agenda.
    static func inAgendaOrder(_ entries: [AgendaEntry]) -> [AgendaEntry] {
        let starts = entries.map(\.start)
        let order = entries.indices.sorted { i, j in
            if starts[i] != starts[j] { return starts[i] < starts[j] }
            return (entries[i].title, entries[i].kind.rawValue, entries[i].id) < (
                entries[j].title, entries[j].kind.rawValue, entries[j].id
            )
        }
        return order.map { entries[$0] }
    }

    func now() throws -> NowResult {
        let now = clock()
        let cal = LocalTime.calendar(zone.current)
        let startOfDay = cal.startOfDay(for: now)
        let endOfDay = cal.date(byAdding: .day, value: 1, to: startOfDay)!
        let appointments = try database.appointments.forRange(from: now, to: endOfDay).filter {
            $0.status == .scheduled
        }
        .flatMap { a in
            AppointmentOccurrences.starts(of: a, from: now, to: endOfDay, zone: zone.current).map {
                AgendaEntry(appointment: a, contactName: nil, occurrence: $0)
            }
        }
        let doses = try DoseAgenda(medications: database.medications, zone: zone).today(
            now: now, dayStart: startOfDay, dayEnd: endOfDay,
            yesterday: cal.date(byAdding: .day, value: -1, to: startOfDay)!)
        let later = (appointments + doses.later).sorted { ($0.start, $0.title) < ($1.start, $1.title) }
        return NowResult(
            now: now, laterToday: later, overdue: doses.overdue,
            water: try WaterController.today(now: now, water: database.water, zone: zone.current))
    }
}
