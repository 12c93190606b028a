import BeautyCore
import Foundation
import GRDB

/// One line of `beautyctl history`: a dose or a reminder delivery and what became of it.
public struct HistoryRow: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case dose, reminder }

    public var kind: Kind
    /// Dose id for doses, appointment id for reminders.
    public var id: Int64
    public var title: String
    public var detail: String?
    public var scheduledAt: Date
    public var state: String
    /// When the dose was confirmed, or the reminder shown.
    public var confirmedAt: Date?
    /// Where a dose was answered (nil for a reminder, an unanswered dose, or one answered before this was kept).
    public var source: DoseAnswerSource? = nil
}

/// Taken out of scheduled doses for one medication over the last 7 and 30 days.
public struct AdherenceRow: Codable, Sendable, Equatable {
    public var medicationID: Int64
    public var name: String
    public var taken7: Int
    public var scheduled7: Int
    public var taken30: Int
    public var scheduled30: Int
}

/// What became of doses and reminders, and how faithfully each medication is taken.
public struct HistoryStore: Sendable {
    let writer: PrioritizedWriter

    /// Doses and reminder deliveries scheduled in [from, to], up to now, oldest first; and doses answered
    /// in that range ahead of their time (taken early), which are history although not yet due.
    public func entries(from: Date, to: Date, now: Date) throws -> [HistoryRow] {
        try writer.read { db in
            let end = min(to, now)
            var rows: [HistoryRow] = []
            let doses = try Row.fetchAll(
                db,
                sql: """
                    SELECT dose.id, dose.scheduledAt, dose.state, dose.confirmedAt, dose.answerSource, medication.name, medication.dose AS amount
                    FROM dose JOIN medication ON medication.id = dose.medicationId
                    WHERE (dose.scheduledAt >= ? AND dose.scheduledAt <= ?)
                       OR (dose.state IN ('taken', 'skipped') AND dose.confirmedAt >= ? AND dose.confirmedAt <= ?)
                    """, arguments: [from, end, from, end])
            for row in doses {
                // A dose whose time passed without an answer is reported as missed, even before the nagging ends.
                let state: String = row["state"]
                rows.append(
                    HistoryRow(
                        kind: .dose, id: row["id"], title: row["name"], detail: row["amount"],
                        scheduledAt: row["scheduledAt"], state: state == "pending" ? "missed" : state,
                        confirmedAt: row["confirmedAt"],
                        source: (row["answerSource"] as String?).flatMap(DoseAnswerSource.init(rawValue:))))
            }
            let reminders = try Row.fetchAll(
                db,
                sql: """
                    SELECT delivery.itemID, delivery.fireAt, delivery.state, delivery.firedAt, appointment.title
                    FROM delivery LEFT JOIN appointment ON appointment.id = delivery.itemID
                    WHERE delivery.itemKind = 'appointment' AND delivery.fireAt >= ? AND delivery.fireAt <= ? AND delivery.state != 'pending'
                    """, arguments: [from, end])
            for row in reminders {
                rows.append(
                    HistoryRow(
                        kind: .reminder, id: row["itemID"], title: row["title"] ?? Appointment.deletedTitle,
                        detail: nil, scheduledAt: row["fireAt"], state: row["state"], confirmedAt: row["firedAt"]))
            }
            return rows.sorted { ($0.scheduledAt, $0.title) < ($1.scheduledAt, $1.title) }
        }
    }

    /// Per medication: doses taken out of doses due in the last 7 and 30 days (up to `now`); a dose
    /// answered ahead of its time counts from the moment it was answered.
    public func adherence(now: Date) throws -> [AdherenceRow] {
        try writer.read { db in
            let week = now.addingTimeInterval(-7 * 86_400)
            let month = now.addingTimeInterval(-30 * 86_400)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT medication.id, medication.name,
                      SUM(dose.scheduledAt >= ? AND dose.state = 'taken') AS taken7, SUM(dose.scheduledAt >= ?) AS scheduled7,
                      SUM(dose.state = 'taken') AS taken30, COUNT(dose.id) AS scheduled30
                    FROM medication LEFT JOIN dose ON dose.medicationId = medication.id AND dose.scheduledAt >= ?
                      AND (dose.scheduledAt <= ? OR (dose.state IN ('taken', 'skipped') AND dose.confirmedAt <= ?))
                    GROUP BY medication.id ORDER BY medication.position, medication.id
                    """, arguments: [week, week, month, now, now])
            return rows.map {
                AdherenceRow(
                    medicationID: $0["id"], name: $0["name"], taken7: $0["taken7"] ?? 0,
                    scheduled7: $0["scheduled7"] ?? 0,
                    taken30: $0["taken30"] ?? 0, scheduled30: $0["scheduled30"] ?? 0)
            }
        }
    }
}
