import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Answers one JSON-RPC request line. Never throws and never calls the notification server:
/// every failure becomes a JSON-RPC error, so one bad client cannot hurt another.
public struct RequestHandler: Sendable {
    let store: AppDatabase
    let scheduler: Scheduler
    let notifier: any Notifier
    let settings: SettingsBox
    let startedAt: Date
    let socketPath: String
    let logger: Logger
    let clock: @Sendable () -> Date

    /// What to do with a request line.
    public enum Outcome: Sendable {
        /// Write this line back (nil for a JSON-RPC notification, which gets no answer).
        case reply(Data?)
        /// Acknowledge with this line, then stream daemon events on the connection.
        case subscribe(ack: Data)
    }

    public func handle(line: Data) async -> Outcome {
        // A syntax check only: JSONDecoder reads lazily and accepts a malformed value it never reads
        // (`"x":01`, a raw tab in a string), which JSON-RPC answers with a parse error.
        guard (try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed])) != nil else {
            return .reply(failure(nil, RPCErrorObject(code: RPCErrorCode.parseError, message: "parse error: the line is not valid JSON")))
        }
        guard let request = try? WireJSON.decoder().decode(RequestLine.self, from: line) else {
            return .reply(failure(nil, RPCErrorObject(
                code: RPCErrorCode.invalidRequest, message: "invalid request: expected an object with jsonrpc, id, method and params")))
        }
        let id = request.id
        guard request.jsonrpc == "2.0" else {
            return .reply(failure(id, RPCErrorObject(code: RPCErrorCode.invalidRequest, message: "invalid request: \"jsonrpc\" must be \"2.0\"")))
        }
        guard let name = request.method else {
            return .reply(failure(id, RPCErrorObject(code: RPCErrorCode.invalidRequest, message: "invalid request: \"method\" is missing")))
        }
        switch request.bound {
        case nil:
            let known = Method.allCases.map(\.rawValue).joined(separator: ", ")
            // A notification (no id) gets no answer, not even this error (JSON-RPC 2.0, section 4.1).
            return .reply(id == nil ? nil : failure(id, RPCErrorObject(
                code: RPCErrorCode.methodNotFound, message: "unknown method '\(name)' (known: \(known))")))
        case let .subscription(ack):
            return .subscribe(ack: success(id, ack) ?? Data())
        case let .call(bound):
            let answer: Data?
            do {
                answer = success(id, try await bound.get()(self))
            } catch {
                answer = failure(id, rpcError(error))
            }
            return .reply(id == nil ? nil : answer)
        }
    }

    /// Every failure of a request as the error it is answered with (the one place errors are mapped).
    private func rpcError(_ error: any Error) -> RPCErrorObject {
        switch error {
        case let error as RequestRouter.InvalidParams:
            return RPCErrorObject(code: RPCErrorCode.invalidParams, message: "invalid params: \(Self.describe(error.underlying))")
        case let error as ValidationError:
            return RPCErrorObject(code: RPCErrorCode.invalidParams, message: error.description, data: RPCErrorData(field: error.field))
        case let StoreError.notFound(kind, itemID):
            return RPCErrorObject(code: RPCErrorCode.notFound, message: "no \(kind) with id \(itemID)", data: RPCErrorData(kind: kind, id: itemID))
        default:
            let report = StoreFailureReport(error, databasePath: store.path)
            logger.error("request failed: \(report.rpcError.message)")
            return report.rpcError
        }
    }

    /// "params.start: expected an ISO 8601 instant" rather than Swift's DecodingError dump.
    static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [CodingKey]) -> String {
            let parts = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return parts.isEmpty ? "params" : parts.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case let .typeMismatch(type, context):
            return "\(path(context.codingPath)): expected \(Self.typeName(type))"
        case let .valueNotFound(type, context):
            return "\(path(context.codingPath)): expected \(Self.typeName(type)), got null"
        case let .keyNotFound(key, context):
            return "\(path(context.codingPath + [key])): missing"
        case let .dataCorrupted(context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type: return "an integer"
        case is Bool.Type: return "true or false"
        case is Double.Type: return "a number"
        default:
            let name = "\(type)"
            return name.hasPrefix("Array") ? "a list" : (name.hasPrefix("Dictionary") ? "an object" : "an object (\(name))")
        }
    }

    private func success<R: Encodable & Sendable>(_ id: RPCID?, _ result: R) -> Data? {
        try? WireJSON.encoder().encode(RPCSuccess(id: id, result: result))
    }

    private func failure(_ id: RPCID?, _ error: RPCErrorObject) -> Data {
        (try? WireJSON.encoder().encode(RPCFailure(id: id, error: error))) ?? Data()
    }

    // MARK: - Routes

    /// Every method's handler, built once (RequestLine decodes params through it).
    static let routes: RequestRouter = {
        var router = RequestRouter()
        viewRoutes(&router)
        appointmentRoutes(&router)
        contactRoutes(&router)
        medicationRoutes(&router)
        measurementRoutes(&router)
        wellbeingRoutes(&router)
        budgetRoutes(&router)
        return router
    }()

    private static func viewRoutes(_ router: inout RequestRouter) {
        router.register(ViewRPC.status) { requests, _ in try requests.status() }
        router.register(ViewRPC.agenda) { try $0.agenda($1) }
        router.register(ViewRPC.now) { requests, _ in try requests.nowView() }
        router.subscription(ViewRPC.subscribe, ack: SubscribeResult(subscribed: true))
    }

    private static func appointmentRoutes(_ router: inout RequestRouter) {
        router.register(AppointmentRPC.add) { try $0.addAppointment($1) }
        router.register(AppointmentRPC.list) { requests, p in
            try requests.store.appointments(from: p.from, to: p.to, statuses: p.status.map(Set.init))
        }
        router.register(AppointmentRPC.show) { try $0.detail($1.id) }
        router.register(AppointmentRPC.edit) { try $0.editAppointment($1) }
        router.register(AppointmentRPC.remove) { requests, p in
            let gone = try requests.detail(p.id)
            try requests.store.deleteAppointment(id: p.id)
            requests.scheduler.wake(.edited)
            return gone
        }
        router.register(AppointmentRPC.importCalendar) { try $0.importAppointments($1) }
        router.register(AppointmentRPC.exportCalendar) { requests, _ in try requests.exportAppointments() }
        router.register(AppointmentRPC.done) { try $0.setStatus($1.id, .done) }
        router.register(AppointmentRPC.cancel) { try $0.setStatus($1.id, .cancelled) }
    }

    private static func contactRoutes(_ router: inout RequestRouter) {
        router.register(ContactRPC.add) { try $0.addContact($1) }
        router.register(ContactRPC.list) { requests, _ in try requests.store.contacts() }
        router.register(ContactRPC.show) { try $0.store.contact(id: $1.id) }
        router.register(ContactRPC.edit) { try $0.editContact($1) }
        router.register(ContactRPC.remove) { requests, p in
            let gone = try requests.store.contact(id: p.id)
            try requests.store.deleteContact(id: p.id)
            return gone
        }
        router.register(ContactRPC.message) { try $0.message($1) }
    }

    // MARK: - Appointments

    private func addAppointment(_ p: AppointmentAddParams) throws -> AppointmentDetail {
        let config = settings.config
        let reminders = p.reminders ?? config.defaultReminderSeconds.map(Reminder.before)
        var appointment = Appointment(
            title: p.title, start: p.start, durationSeconds: p.durationSeconds ?? config.defaultDurationSeconds,
            allDay: p.allDay ?? false, address: p.address, notes: p.notes, contactID: p.contactID,
            category: p.category, color: p.color,
            price: p.price.map { Money(cents: $0.cents, currency: $0.currency ?? config.currency) },
            reminders: reminders, timeZone: p.timeZone, recurrence: p.recurrence,
            repeatAfterDoneSeconds: p.repeatAfterDoneSeconds)
        appointment = try Validation.appointment(appointment)
        let saved = try store.addAppointment(appointment, now: clock(), zone: LocalZone.shared.current)
        logger.info("appointment added: \(saved.title)", metadata: ["item_id": "\(saved.id ?? 0)"])
        scheduler.wake(.edited)
        return try detail(saved.id!)
    }

    private func editAppointment(_ p: AppointmentEditParams) throws -> AppointmentDetail {
        let saved = try store.updateAppointment(id: p.id, now: clock(), zone: LocalZone.shared.current) { a in
            a = try Validation.appointment(edited(a, p))
        }
        scheduler.wake(.edited)
        return try detail(saved.id!)
    }

    private func edited(_ stored: Appointment, _ p: AppointmentEditParams) -> Appointment {
        var a = stored
        for field in p.clear ?? [] {
            switch field {
            case .address: a.address = nil
            case .notes: a.notes = nil
            case .contact: a.contactID = nil
            case .category: a.category = nil
            case .color: a.color = nil
            case .price: a.price = nil
            case .reminders: a.reminders = []
            case .timeZone: a.timeZone = nil
            case .recurrence: a.recurrence = nil
            case .cycle: a.repeatAfterDoneSeconds = nil
            }
        }
        if let v = p.title { a.title = v }
        if let v = p.start { a.start = v }
        if let v = p.durationSeconds { a.durationSeconds = v }
        if let v = p.allDay { a.allDay = v }
        if let v = p.address { a.address = v }
        if let v = p.notes { a.notes = v }
        if let v = p.contactID { a.contactID = v }
        if let v = p.category { a.category = v }
        if let v = p.color { a.color = v }
        if let v = p.price { a.price = Money(cents: v.cents, currency: v.currency ?? settings.config.currency) }
        if let v = p.reminders { a.reminders = v }
        if let v = p.timeZone { a.timeZone = v }
        if let v = p.recurrence { a.recurrence = v }
        if let v = p.repeatAfterDoneSeconds { a.repeatAfterDoneSeconds = v }
        return a
    }

    private func importAppointments(_ p: AppointmentImportParams) throws -> AppointmentImportResult {
        guard p.contactNames.isEmpty || p.contactNames.count == p.appointments.count else {
            throw ValidationError(field: "contactNames", "must have one entry per appointment")
        }
        let contacts = Dictionary(try store.contacts().map { ($0.name.lowercased(), $0.id!) }) { first, _ in first }
        let config = settings.config
        let appointments = try p.appointments.enumerated().map { index, raw in
            var a = raw
            a.id = nil
            guard a.uid != nil else { throw ValidationError(field: "appointments[\(index)].uid", "is required to import") }
            if let name = p.contactNames.isEmpty ? nil : p.contactNames[index] { a.contactID = contacts[name.lowercased()] }
            if let price = a.price, price.currency.isEmpty { a.price = Money(cents: price.cents, currency: config.currency) }
            do {
                return try Validation.appointment(a)
            } catch let error as ValidationError {
                // The title names the event; a control character in it (the likely error) must not reach a terminal.
                throw ValidationError(field: "appointments[\(index)].\(error.field)", "\(error.message) (\(Validation.quotable(a.title)))")
            }
        }
        let counts = try store.importAppointments(appointments, now: clock(), zone: LocalZone.shared.current)
        logger.info("imported \(counts.inserted) new, \(counts.updated) updated, \(counts.unchanged) unchanged appointments")
        scheduler.wake(.edited)
        return AppointmentImportResult(inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged)
    }

    private func exportAppointments() throws -> AppointmentExportResult {
        try store.assignMissingUIDs()
        let all = try store.appointments()
        let names = try all.map { a in try a.contactID.map { try store.contact(id: $0).name } }
        return AppointmentExportResult(appointments: all, contactNames: names)
    }

    private func setStatus(_ id: Int64, _ status: Appointment.Status) throws -> AppointmentDetail {
        let change = try store.setAppointmentStatus(id: id, status, now: clock(), zone: LocalZone.shared.current)
        if let followUp = change.followUp {
            logger.info("next visit of the cycle scheduled for \(Timestamps().short(followUp.start))", metadata: ["item_id": "\(followUp.id ?? 0)"])
        }
        if let row = change.expense {
            logger.info("expense recorded for a done appointment: \(Money(cents: row.amountCents, currency: row.currency).formatted)",
                        metadata: ["item_id": "\(id)", "budget_entry": "\(row.id ?? 0)"])
        }
        scheduler.wake(.edited)
        var result = try detail(id)
        result.followUp = change.followUp
        return result
    }

    private func detail(_ id: Int64) throws -> AppointmentDetail {
        let a = try store.appointment(id: id)
        let contact = a.contactID.flatMap { try? store.contact(id: $0) }
        let next = a.recurrence == nil ? nil
            : AppointmentOccurrences.starts(of: a, from: clock(), to: .distantFuture, zone: LocalZone.shared.current, limit: 5)
        return AppointmentDetail(appointment: a, contact: contact, deliveries: try store.deliveries(itemKind: .appointment, itemID: id),
                                 nextOccurrences: next)
    }

    // MARK: - Contacts and messages

    private func addContact(_ p: ContactAddParams) throws -> Contact {
        let contact = try Validation.contact(Contact(
            name: p.name, phone: p.phone, email: p.email, firstName: p.firstName, lastName: p.lastName, address: p.address))
        return try store.addContact(contact)
    }

    private func editContact(_ p: ContactEditParams) throws -> Contact {
        var c = try store.contact(id: p.id)
        for field in p.clear ?? [] {
            switch field {
            case .email: c.email = nil
            case .firstName: c.firstName = nil
            case .lastName: c.lastName = nil
            case .address: c.address = nil
            }
        }
        if let v = p.name { c.name = v }
        if let v = p.phone { c.phone = v }
        if let v = p.email { c.email = v }
        if let v = p.firstName { c.firstName = v }
        if let v = p.lastName { c.lastName = v }
        if let v = p.address { c.address = v }
        return try store.updateContact(try Validation.contact(c))
    }

    private func message(_ p: MessageParams) throws -> MessageResult {
        let a = try store.appointment(id: p.id)
        let contact = a.contactID.flatMap { try? store.contact(id: $0) }
        let text = p.template.text(for: a, contact: contact, zone: LocalZone.shared.current)
        return MessageResult(template: p.template, text: text, phone: contact?.phone,
                             smsURI: contact.map { MessageTemplate.smsURI(phone: $0.phone, body: text) })
    }

    // MARK: - Views

    private func agenda(_ p: AgendaParams) throws -> AgendaResult {
        let from = p.from ?? clock()
        let to = p.to ?? from.addingTimeInterval(7 * 86_400)
        guard to > from else { throw ValidationError(field: "to", "must be after 'from'") }
        if let limit = p.limit, limit < 0 { throw ValidationError(field: "limit", "must not be negative") }
        if let offset = p.offset, offset < 0 { throw ValidationError(field: "offset", "must not be negative") }
        let category = try Validation.category(p.category)
        // Appointment statuses and dose states; an empty list filters nothing.
        let knownStatuses = Set(Appointment.Status.allCases.map(\.rawValue) + Dose.State.allCases.map(\.rawValue))
        let statuses = try Set((p.status ?? []).map { raw in
            let value = raw.trimmingCharacters(in: .whitespaces).lowercased()
            guard knownStatuses.contains(value) else {
                throw ValidationError(field: "status", "'\(raw)' is not one of \(knownStatuses.sorted().joined(separator: ", "))")
            }
            return value
        })
        let needle = p.search?.trimmingCharacters(in: .whitespaces).lowercased()
        let contacts = Dictionary(uniqueKeysWithValues: try store.contacts().map { ($0.id!, $0) })
        let wantsAppointments = p.kind == nil || p.kind == .appointment
        // Medications have no category, so a category filter leaves them out.
        let wantsDoses = (p.kind == nil || p.kind == .medication) && category == nil
        let appointments = wantsAppointments ? try store.appointmentsForRange(from: from, to: to) : []
        let matchingAppointments = appointments.filter { a in
            if let category, !(a.category == category || a.category?.hasPrefix(category + "/") == true) { return false }
            if let needle, !needle.isEmpty {
                let haystack = [a.title, a.notes ?? "", a.address ?? ""].joined(separator: "\n").lowercased()
                if !haystack.contains(needle) { return false }
            }
            return true
        }
        // A series with more occurrences than one expansion gives stops at its last one: the answer
        // covers [from, that instant) for everything, and says where to go on.
        var nextFrom: Date?
        var matching = matchingAppointments.flatMap { a in
            let starts = AppointmentOccurrences.starts(of: a, from: from, to: to, zone: LocalZone.shared.current)
            if starts.count == AppointmentOccurrences.limit, let last = starts.last { nextFrom = min(nextFrom ?? last, last) }
            return starts.map {
                AgendaEntry(appointment: a, contactName: a.contactID.flatMap { contacts[$0]?.name }, occurrence: $0)
            }
        }
        if wantsDoses { matching += try agendaDoses(from: from, to: to, search: needle) }
        if let nextFrom { matching.removeAll { $0.start >= nextFrom } }
        if !statuses.isEmpty { matching.removeAll { !statuses.contains($0.status) } }
        // Stable order: time, then title, then kind and id.
        matching.sort { ($0.start, $0.title, $0.kind.rawValue, $0.id) < ($1.start, $1.title, $1.kind.rawValue, $1.id) }
        let entries = Array(matching.dropFirst(p.offset ?? 0).prefix(p.limit ?? Int.max))
        return AgendaResult(from: from, to: to, total: matching.count, entries: entries, nextFrom: nextFrom)
    }

    private func nowView() throws -> NowResult {
        let now = clock()
        let cal = LocalTime.calendar(LocalZone.shared.current)
        let startOfDay = cal.startOfDay(for: now)
        let endOfDay = cal.date(byAdding: .day, value: 1, to: startOfDay)!
        let appointments = try store.appointmentsForRange(from: now, to: endOfDay).filter { $0.status == .scheduled }
            .flatMap { a in
                AppointmentOccurrences.starts(of: a, from: now, to: endOfDay, zone: LocalZone.shared.current).map {
                    AgendaEntry(appointment: a, contactName: nil, occurrence: $0)
                }
            }
        let doses = try doseEntries(now: now, dayStart: startOfDay, dayEnd: endOfDay)
        let later = (appointments + doses.later).sorted { ($0.start, $0.title) < ($1.start, $1.title) }
        return NowResult(now: now, laterToday: later, overdue: doses.overdue, water: try waterToday(now: now))
    }

    private func status() throws -> StatusResult {
        let now = clock()
        let server = notifier.serverInfo()
        var next: StatusResult.NextTrigger?
        if let trigger = try store.nextTrigger(after: now) ?? store.dueTriggers(at: now, limit: 1).first {
            // A medication trigger's itemID is a dose id: the title is its medication's name.
            let title = switch trigger.itemKind {
            case .medication: (try? store.dose(id: trigger.itemID)).flatMap { try? store.medication(id: $0.medicationID).name }
            case .appointment: try? store.appointment(id: trigger.itemID).title
            case .water: "Drink water"
            case .tip: "Beauty tip of the day"
            }
            next = .init(fireAt: trigger.fireAt, itemKind: trigger.itemKind, itemID: trigger.itemID, title: title ?? "?")
        }
        return StatusResult(
            version: BeautyVersion.current, pid: getpid(), startedAt: startedAt,
            uptimeSeconds: Int(now.timeIntervalSince(startedAt)), database: store.path, socket: socketPath,
            counts: .init(appointments: try store.appointmentCount(), contacts: try store.contactCount(),
                          medications: try store.medicationCount(),
                          pendingDeliveries: try store.pendingCount(),
                          waitingDeliveries: try store.waitingDeliveries(at: now).count),
            nextTrigger: next,
            notificationServer: .init(reachable: server.reachable, name: server.name, vendor: server.vendor,
                                      version: server.version, capabilities: server.capabilities, lastError: server.lastError),
            waitingFor: scheduler.hold()?.waitingFor)
    }
}

/// The live configuration, swapped on SIGHUP.
public final class SettingsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: DaemonConfig

    public init(_ config: DaemonConfig) { value = config }

    public var config: DaemonConfig {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
