import BeautyCore
import BeautyProtocol
import Foundation

/// The staged imports open in the daemon (appointment.importBegin ... importCommit), each owned by the
/// connection that began it: only that connection can add to, commit or abort it, and it is discarded
/// when the connection closes. Bounded so that clients cannot exhaust the daemon's memory: each stage
/// holds at most `limits.appointments` appointments and `limits.bytes` of memory as `heldBytes`
/// counts it, and at most `limits.openStages` stages are open at once.
public final class ImportStages: @unchecked Sendable {
    public struct Limits: Sendable {
        var appointments: Int
        var bytes: Int
        var openStages: Int

        public init(appointments: Int, bytes: Int, openStages: Int) {
            (self.appointments, self.bytes, self.openStages) = (appointments, bytes, openStages)
        }

        /// Above the largest calendars people keep (a 100,000-event file holds ~10 MiB of text and
        /// ~50 MiB as staged appointments), and 384 MiB at worst for all open stages.
        public static let standard = Limits(
            appointments: AppointmentImportStage.standardMaxAppointments, bytes: 96 << 20, openStages: 4)
    }

    /// Appointments checked on arrival, waiting for the commit; contacts are linked at the commit.
    struct Stage {
        let connection: UInt64
        var appointments: [Appointment] = []
        /// The contact each appointment names (index-aligned), to link or create at the commit.
        var contacts: [Contact?] = []
        var bytes = 0
    }

    /// Too many stages are open: the client should try again once another import has finished.
    struct Busy: Error {
        var text: TranslatableText
    }

    let limits: Limits
    private let lock = NSLock()
    private var stages: [String: Stage] = [:]
    private var lastNumber = 0

    init(limits: Limits = .standard) { self.limits = limits }

    func begin(connection: UInt64) throws -> String {
        try lock.withLock {
            guard stages.count < limits.openStages else {
                throw Busy(
                    text: TranslatableText(
                        "busy: %s imports are already staged (the daemon's maximum); try again when one has finished",
                        [.plain(limits.openStages)]))
            }
            if stages.values.contains(where: { $0.connection == connection }) {
                throw ValidationError(
                    field: "stage", template: "this connection already has an import staged; commit or abort it first")
            }
            lastNumber += 1
            let name = "import-\(lastNumber)"
            stages[name] = Stage(connection: connection)
            return name
        }
    }

    /// Adds checked appointments at `firstIndex`, which must be the number the stage holds. Past the
    /// bound, the stage is discarded: the import cannot succeed, and its memory is freed at once.
    func append(
        _ appointments: [Appointment], contacts: [Contact?], firstIndex: Int,
        to name: String, connection: UInt64
    ) throws -> Int {
        try lock.withLock {
            var stage = try owned(name, connection)
            guard firstIndex == stage.appointments.count else {
                throw ValidationError(
                    field: "firstIndex",
                    template: "is %s, but the stage holds %s appointments: chunks must follow one another", firstIndex,
                    stage.appointments.count)
            }
            let held =
                appointments.reduce(0) { $0 + Self.heldBytes(of: $1) }
                + contacts.reduce(0) {
                    $0 + MemoryLayout<Contact?>.stride + ($1.map { $0.name.utf8.count + $0.phone.utf8.count } ?? 0)
                }
            guard stage.appointments.count + appointments.count <= limits.appointments,
                stage.bytes + held <= limits.bytes
            else {
                stages[name] = nil
                throw ValidationError(
                    field: "appointments",
                    template:
                        "the import is larger than a stage holds (%s appointments, %s MiB in memory); it was discarded and nothing was imported",
                    limits.appointments, limits.bytes >> 20)
            }
            stages[name] = nil  // so the arrays below are uniquely referenced and grow in place
            stage.appointments += appointments
            stage.contacts += contacts.isEmpty ? Array(repeating: nil, count: appointments.count) : contacts
            stage.bytes += held
            stages[name] = stage
            return stage.appointments.count
        }
    }

    /// Removes the stage and hands over what it holds (for a commit or an abort).
    func take(_ name: String, connection: UInt64) throws -> Stage {
        try lock.withLock {
            let stage = try owned(name, connection)
            stages[name] = nil
            return stage
        }
    }

    /// Drops what `connection` staged (it is closed, or a chunk of it was refused).
    func discard(connection: UInt64) {
        lock.withLock { stages = stages.filter { $0.value.connection != connection } }
    }

    var openCount: Int { lock.withLock { stages.count } }

    private func owned(_ name: String, _ connection: UInt64) throws -> Stage {
        guard let stage = stages[name], stage.connection == connection else {
            throw ValidationError(
                field: "stage",
                template:
                    "no import '%s' is staged on this connection (committed, aborted, refused, or begun on another connection)",
                name)
        }
        return stage
    }

    /// What a staged appointment holds in memory, near enough to bound it: its own layout, its text
    /// (kept iCalendar lines may be 32 KiB an event), a date for each EXDATE, RDATE and changed
    /// occurrence (tens of thousands in a crafted event), and its reminders.
    static func heldBytes(of a: Appointment) -> Int {
        let fields = [
            a.title, a.address, a.notes, a.category, a.color, a.timeZone, a.uid, a.recurrence?.rule, a.price?.currency,
            a.recurrence?.startWall,
        ]
        .reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        let lists = (a.tags + a.extraProperties + (a.recurrence?.moreRules ?? [])).reduce(0) { $0 + $1.utf8.count }
        let dates = a.recurrence.map { $0.exdates.count + $0.rdates.count + $0.changed.count } ?? 0
        return MemoryLayout<Appointment>.stride + fields + lists + dates * MemoryLayout<Date>.stride
            + a.reminders.count * MemoryLayout<Reminder>.stride
    }
}
