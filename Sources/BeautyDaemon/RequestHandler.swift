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
        let decoder = WireJSON.decoder()
        guard (try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed])) != nil else {
            return .reply(failure(nil, RPCErrorObject(code: RPCErrorCode.parseError, message: "parse error: the line is not valid JSON")))
        }
        guard let envelope = try? decoder.decode(RPCEnvelope.self, from: line) else {
            return .reply(failure(nil, RPCErrorObject(
                code: RPCErrorCode.invalidRequest, message: "invalid request: expected an object with jsonrpc, id, method and params")))
        }
        let id = envelope.id
        guard envelope.jsonrpc == "2.0" else {
            return .reply(failure(id, RPCErrorObject(code: RPCErrorCode.invalidRequest, message: "invalid request: \"jsonrpc\" must be \"2.0\"")))
        }
        guard let name = envelope.method else {
            return .reply(failure(id, RPCErrorObject(code: RPCErrorCode.invalidRequest, message: "invalid request: \"method\" is missing")))
        }
        guard let method = Method(rawValue: name) else {
            let known = Method.allCases.map(\.rawValue).joined(separator: ", ")
            // A notification (no id) gets no answer, not even this error (JSON-RPC 2.0, section 4.1).
            return .reply(id == nil ? nil : failure(id, RPCErrorObject(
                code: RPCErrorCode.methodNotFound, message: "unknown method '\(name)' (known: \(known))")))
        }
        if method == .subscribe {
            return .subscribe(ack: success(id, ["subscribed": true]) ?? Data())
        }
        let answer = await dispatch(method, id: id, line: line)
        return .reply(envelope.id == nil ? nil : answer)
    }

    // MARK: - Dispatch

    private func dispatch(_ method: Method, id: RPCID?, line: Data) async -> Data? {
        switch method {
        case .status: return await call(id, line) { (_: NoParams) in try status() }
        case .appointmentAdd: return await call(id, line, addAppointment)
        case .appointmentList:
            return await call(id, line) { (p: AppointmentListParams) in
                try store.appointments(from: p.from, to: p.to, statuses: p.status.map(Set.init))
            }
        case .appointmentShow: return await call(id, line) { (p: IDParams) in try detail(p.id) }
        case .appointmentEdit: return await call(id, line, editAppointment)
        case .appointmentRemove:
            return await call(id, line) { (p: IDParams) in
                let gone = try detail(p.id)
                try store.deleteAppointment(id: p.id)
                scheduler.wake(.edited)
                return gone
            }
        case .appointmentImport: return await call(id, line, importAppointments)
        case .appointmentExport:
            return await call(id, line) { (_: NoParams) in
                try store.assignMissingUIDs()
                let all = try store.appointments()
                let names = try all.map { a in try a.contactID.map { try store.contact(id: $0).name } }
                return AppointmentExportResult(appointments: all, contactNames: names)
            }
        case .appointmentDone: return await call(id, line) { (p: IDParams) in try setStatus(p.id, .done) }
        case .appointmentCancel: return await call(id, line) { (p: IDParams) in try setStatus(p.id, .cancelled) }
        case .contactAdd: return await call(id, line, addContact)
        case .contactList: return await call(id, line) { (_: NoParams) in try store.contacts() }
        case .contactShow: return await call(id, line) { (p: IDParams) in try store.contact(id: p.id) }
        case .contactEdit: return await call(id, line, editContact)
        case .contactRemove:
            return await call(id, line) { (p: IDParams) in
                let gone = try store.contact(id: p.id)
                try store.deleteContact(id: p.id)
                return gone
            }
        case .medAdd: return await call(id, line, addMedication)
        case .medList: return await call(id, line) { (_: NoParams) in try store.medications() }
        case .medShow: return await call(id, line) { (p: IDParams) in try medicationDetail(p.id) }
        case .medEdit: return await call(id, line, editMedication)
        case .medRemove:
            return await call(id, line) { (p: IDParams) in
                let gone = try store.medication(id: p.id)
                try store.deleteMedication(id: p.id)
                scheduler.wake(.edited)
                return gone
            }
        case .medMove: return await call(id, line) { (p: MedMoveParams) in try store.moveMedication(id: p.id, to: p.position) }
        case .medRefill: return await call(id, line, refill)
        case .doseTaken: return await call(id, line) { (p: DoseParams) in try await answerDose(p, .taken) }
        case .doseSkip: return await call(id, line) { (p: DoseParams) in try await answerDose(p, .skipped) }
        case .doseSnooze: return await call(id, line) { (p: DoseParams) in try await answerDose(p, .snoozed) }
        case .history: return await call(id, line, history)
        case .notifications: return await call(id, line, notifications)
        case .measureAdd, .measureList, .measureClear, .measureChart:
            return await measurements(method, id: id, line: line)
        case .tips, .tipRandom, .waterAdd, .waterTotal, .waterGoal, .waterRemind, .waterImport:
            return await wellbeing(method, id: id, line: line)
        case .budgetAdd, .budgetList, .budgetEdit, .budgetRemove, .budgetBalance, .categories:
            return await budget(method, id: id, line: line)
        case .message: return await call(id, line, message)
        case .agenda: return await call(id, line, agenda)
        case .now: return await call(id, line) { (_: NoParams) in try nowView() }
        case .subscribe: return nil
        }
    }

    /// Decodes the params as `P`, runs `body`, and turns its result or error into an answer line.
    func call<P: Decodable, R: Encodable & Sendable>(
        _ id: RPCID?, _ line: Data, _ body: (P) async throws -> R
    ) async -> Data? {
        let params: P
        do {
            params = try decodeParams(P.self, from: line)
        } catch {
            return failure(id, RPCErrorObject(code: RPCErrorCode.invalidParams, message: "invalid params: \(Self.describe(error))"))
        }
        do {
            return success(id, try await body(params))
        } catch let error as ValidationError {
            return failure(id, RPCErrorObject(code: RPCErrorCode.invalidParams, message: error.description,
                                              data: RPCErrorData(field: error.field)))
        } catch let StoreError.notFound(kind, itemID) {
            return failure(id, RPCErrorObject(code: RPCErrorCode.notFound, message: "no \(kind) with id \(itemID)",
                                              data: RPCErrorData(kind: kind, id: itemID)))
        } catch {
            let report = StoreFailureReport(error, databasePath: store.path)
            logger.error("request failed: \(report.rpcError.message)")
            return failure(id, report.rpcError)
        }
    }

    /// `params` may be missing or null for methods whose fields are all optional.
    private func decodeParams<P: Decodable>(_ type: P.Type, from line: Data) throws -> P {
        let decoder = WireJSON.decoder()
        if let envelope = try? decoder.decode(RPCParamsEnvelope<P?>.self, from: line), let params = envelope.params {
            return params
        }
        let object = try JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed]) as? [String: Any]
        if let raw = object?["params"], !(raw is NSNull) {
            // Present but wrong: decode again to get the precise error.
            return try decoder.decode(RPCParamsEnvelope<P>.self, from: line).params
        }
        return try decoder.decode(P.self, from: Data("{}".utf8))
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
